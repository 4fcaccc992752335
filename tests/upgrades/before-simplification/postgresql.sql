--
-- PostgreSQL database dump
--

\restrict Vv5MvTE1raKQOz1oZrg2V3AcCMLfEDqhROkoe9CPjD75mupFW6ltcWT6GUYkxdF

-- Dumped from database version 15.20 (Debian 15.20-0+deb12u1)
-- Dumped by pg_dump version 15.20 (Debian 15.20-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: book_entries_append_only(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.book_entries_append_only() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    BEGIN
        RAISE EXCEPTION 'book entries are append-only: % refused', TG_OP;
    END
    $$;


--
-- Name: events_append_only(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.events_append_only() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    BEGIN
        RAISE EXCEPTION 'events are append-only: % refused', TG_OP;
    END
    $$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: alembic_version; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.alembic_version (
    version_num character varying(32) NOT NULL
);


--
-- Name: book_entries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.book_entries (
    "position" bigint NOT NULL,
    club_id character varying(64) NOT NULL,
    seq integer NOT NULL,
    type character varying(64) NOT NULL,
    schema_version smallint NOT NULL,
    payload json NOT NULL,
    recorded_at timestamp with time zone NOT NULL,
    actor character varying(128) NOT NULL,
    member_id character varying(64),
    token_id character varying(32),
    idempotency_key character varying(128),
    hash character varying(64) NOT NULL,
    CONSTRAINT ck_book_entries_seq_positive CHECK ((seq >= 1))
);


--
-- Name: book_entries_position_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.book_entries_position_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: book_entries_position_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.book_entries_position_seq OWNED BY public.book_entries."position";


--
-- Name: clubs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.clubs (
    id character varying(64) NOT NULL,
    name character varying(64) NOT NULL,
    name_key character varying(64) NOT NULL,
    created_at timestamp with time zone NOT NULL
);


--
-- Name: deal_views; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.deal_views (
    session_id character varying(64) NOT NULL,
    deal_no integer NOT NULL,
    version integer NOT NULL,
    view json NOT NULL
);
ALTER TABLE ONLY public.deal_views ALTER COLUMN view SET COMPRESSION lz4;


--
-- Name: events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.events (
    "position" bigint NOT NULL,
    stream_id character varying(64) NOT NULL,
    version integer NOT NULL,
    type character varying(64) NOT NULL,
    schema_version smallint NOT NULL,
    payload json NOT NULL,
    recorded_at timestamp with time zone NOT NULL,
    actor character varying(128) NOT NULL,
    idempotency_key character varying(128),
    member_id character varying(64),
    token_id character varying(32),
    hash character varying(64),
    CONSTRAINT ck_events_version_positive CHECK ((version >= 1))
);


--
-- Name: events_position_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.events_position_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: events_position_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.events_position_seq OWNED BY public.events."position";


--
-- Name: idempotency_keys; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.idempotency_keys (
    scope character varying(80) NOT NULL,
    key character varying(128) NOT NULL,
    fingerprint character varying(64) NOT NULL,
    status_code smallint NOT NULL,
    response json NOT NULL,
    created_at timestamp with time zone NOT NULL
);


--
-- Name: members; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.members (
    id character varying(64) NOT NULL,
    club_id character varying(64) NOT NULL,
    name character varying(64) NOT NULL,
    name_key character varying(64) NOT NULL,
    guest boolean NOT NULL,
    created_at timestamp with time zone NOT NULL
);


--
-- Name: session_results; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.session_results (
    session_id character varying(64) NOT NULL,
    seat character varying(64) NOT NULL,
    session_name character varying(200) NOT NULL,
    club_id character varying(64),
    member_id character varying(64),
    currency character varying(8) NOT NULL,
    net_units bigint NOT NULL,
    net_minor bigint,
    deals_dealt integer NOT NULL,
    loos integer NOT NULL,
    loo_units bigint NOT NULL,
    penalties integer NOT NULL,
    penalty_units bigint NOT NULL,
    ended_at timestamp with time zone NOT NULL,
    version integer NOT NULL
);


--
-- Name: sessions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sessions (
    id character varying(64) NOT NULL,
    club_id character varying(64),
    version integer NOT NULL,
    state json NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    head_hash character varying(64)
);
ALTER TABLE ONLY public.sessions ALTER COLUMN state SET COMPRESSION lz4;


--
-- Name: snapshots; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.snapshots (
    session_id character varying(64) NOT NULL,
    version integer NOT NULL,
    state json NOT NULL
);
ALTER TABLE ONLY public.snapshots ALTER COLUMN state SET COMPRESSION lz4;


--
-- Name: tokens; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.tokens (
    id character varying(32) NOT NULL,
    club_id character varying(64) NOT NULL,
    member_id character varying(64) NOT NULL,
    role character varying(16) NOT NULL,
    label character varying(100) NOT NULL,
    secret_hash character varying(64) NOT NULL,
    created_at timestamp with time zone NOT NULL,
    expires_at timestamp with time zone,
    revoked_at timestamp with time zone,
    CONSTRAINT ck_tokens_role CHECK (((role)::text = ANY ((ARRAY['admin'::character varying, 'treasurer'::character varying, 'dealer'::character varying, 'auditor'::character varying])::text[])))
);


--
-- Name: book_entries position; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.book_entries ALTER COLUMN "position" SET DEFAULT nextval('public.book_entries_position_seq'::regclass);


--
-- Name: events position; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.events ALTER COLUMN "position" SET DEFAULT nextval('public.events_position_seq'::regclass);


--
-- Data for Name: alembic_version; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.alembic_version (version_num) FROM stdin;
0007
\.


--
-- Data for Name: book_entries; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.book_entries ("position", club_id, seq, type, schema_version, payload, recorded_at, actor, member_id, token_id, idempotency_key, hash) FROM stdin;
1	89df7d879aa044ad841d3ad5c854d093	1	PaymentRecorded	1	{"payer": "539abcfd2ca041c7aea889bb94081643", "payee": "club", "amount_minor": 30, "currency": "units", "method": "cash", "session_id": null, "note": null}	2026-11-25 23:00:12.47237+00	Tess	dc6b317c71b74a8cbb15f990b8fb3584	\N	\N	dd4288214927d21964e6dddba6606e20732b523b74233d77fec4ddaf26880573
\.


--
-- Data for Name: clubs; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.clubs (id, name, name_key, created_at) FROM stdin;
89df7d879aa044ad841d3ad5c854d093	The Bell	the bell	2026-11-25 23:00:09.681921+00
\.


--
-- Data for Name: deal_views; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.deal_views (session_id, deal_no, version, view) FROM stdin;
38bbfac0225b49628efaae2fbd9ba258	1	3	{"deal_no":1,"dealer":"Ada","kind":"single","trump_card":"AD","dealt":["Ben","Cat","Ada"],"fresh":true,"forced":null,"miss":false,"face_up":{"Ben":"3H","Cat":"QH","Ada":"AH"},"phase":"settled","redeals":0,"declarations":{},"standing":[],"entry":null,"tricks":[],"current_trick":[],"first_play":null,"hands":{},"replay":null,"replay_asked_by":null,"pool_at_play_units":null,"penalties":[],"abandoned":{},"breaches":[],"postings":[{"from":"Ada","to":"pool","amount_units":3,"reason":"deal","deal_no":1},{"from":"Ben","to":"next_pool","amount_units":3,"reason":"single_loo","deal_no":1,"loo":true},{"from":"Cat","to":"next_pool","amount_units":3,"reason":"single_loo","deal_no":1,"loo":true},{"from":"Ada","to":"next_pool","amount_units":3,"reason":"single_loo","deal_no":1,"loo":true},{"from":"pool","to":"next_pool","amount_units":3,"reason":"carried_forward","deal_no":1}],"settlement":{"deal_no":1,"outcome":"single-not-won","pool_units":3,"loo_units":3,"shares":[],"looed":["Ben","Cat","Ada"],"carried_units":3,"next_fresh":false,"next_forced":null},"pool_units":0,"contributions":[{"from":"Ada","to":"pool","amount_units":3,"reason":"deal","deal_no":1}],"corrections":[]}
38bbfac0225b49628efaae2fbd9ba258	2	17	{"deal_no":2,"dealer":"Ben","kind":"hand","trump_card":"9D","dealt":["Cat","Ada","Ben"],"fresh":false,"forced":null,"miss":true,"face_up":{},"phase":"settled","redeals":0,"declarations":{"Cat":"throw_up","Ada":"take_miss","Ben":"play"},"standing":[{"player":"Ada","hand":"miss"},{"player":"Ben","hand":"own"}],"entry":"cards","tricks":[{"trick":1,"winner":"Ben","cards":[["Ada","4S"],["Ben","AS"]]},{"trick":2,"winner":"Ben","cards":[["Ben","KD"],["Ada","KC"]]},{"trick":3,"winner":"Ben","cards":[["Ben","5H"],["Ada","QS"]]}],"current_trick":[],"first_play":null,"hands":{"Ada":["4S","KC","QS"],"Ben":["AS","KD","5H"]},"replay":null,"replay_asked_by":null,"pool_at_play_units":15,"penalties":[],"abandoned":{},"breaches":[],"postings":[{"from":"Ben","to":"pool","amount_units":3,"reason":"deal","deal_no":2},{"from":"next_pool","to":"pool","amount_units":12,"reason":"brought_forward","deal_no":2},{"from":"pool","to":"Ben","amount_units":5,"reason":"trick","deal_no":2},{"from":"pool","to":"Ben","amount_units":5,"reason":"trick","deal_no":2},{"from":"pool","to":"Ben","amount_units":5,"reason":"trick","deal_no":2},{"from":"Ada","to":"next_pool","amount_units":6,"reason":"loo","deal_no":2,"loo":true}],"settlement":{"deal_no":2,"outcome":"divided","pool_units":15,"loo_units":6,"shares":[{"trick":1,"winner":"Ben","amount_units":5,"paid_to":"Ben","stays_in_pool":null},{"trick":2,"winner":"Ben","amount_units":5,"paid_to":"Ben","stays_in_pool":null},{"trick":3,"winner":"Ben","amount_units":5,"paid_to":"Ben","stays_in_pool":null}],"looed":["Ada"],"carried_units":0,"next_fresh":false,"next_forced":null},"pool_units":0,"contributions":[{"from":"Ben","to":"pool","amount_units":3,"reason":"deal","deal_no":2},{"from":"next_pool","to":"pool","amount_units":12,"reason":"brought_forward","deal_no":2}],"corrections":[]}
38bbfac0225b49628efaae2fbd9ba258	3	31	{"deal_no":3,"dealer":"Cat","kind":"hand","trump_card":"4H","dealt":["Ada","Ben","Cat"],"fresh":false,"forced":null,"miss":true,"face_up":{},"phase":"settled","redeals":0,"declarations":{"Ada":"play","Ben":"throw_up","Cat":"play_miss_for_pool"},"standing":[{"player":"Ada","hand":"own"},{"player":"Cat","hand":"miss-for-pool"}],"entry":"cards","tricks":[{"trick":1,"winner":"Ada","cards":[["Ada","QH"],["Cat","6S"]]},{"trick":2,"winner":"Cat","cards":[["Ada","10C"],["Cat","JC"]]},{"trick":3,"winner":"Cat","cards":[["Cat","KC"],["Ada","5D"]]}],"current_trick":[],"first_play":null,"hands":{"Ada":["QH","10C","5D"],"Cat":["6S","JC","KC"]},"replay":null,"replay_asked_by":null,"pool_at_play_units":9,"penalties":[],"abandoned":{},"breaches":[],"postings":[{"from":"Cat","to":"pool","amount_units":3,"reason":"deal","deal_no":3},{"from":"next_pool","to":"pool","amount_units":6,"reason":"brought_forward","deal_no":3},{"from":"pool","to":"Ada","amount_units":3,"reason":"trick","deal_no":3},{"from":"pool","to":"next_pool","amount_units":6,"reason":"carried_forward","deal_no":3}],"settlement":{"deal_no":3,"outcome":"divided","pool_units":9,"loo_units":6,"shares":[{"trick":1,"winner":"Ada","amount_units":3,"paid_to":"Ada","stays_in_pool":null},{"trick":2,"winner":"Cat","amount_units":3,"paid_to":null,"stays_in_pool":"miss-for-pool"},{"trick":3,"winner":"Cat","amount_units":3,"paid_to":null,"stays_in_pool":"miss-for-pool"}],"looed":[],"carried_units":6,"next_fresh":true,"next_forced":null},"pool_units":0,"contributions":[{"from":"Cat","to":"pool","amount_units":3,"reason":"deal","deal_no":3},{"from":"next_pool","to":"pool","amount_units":6,"reason":"brought_forward","deal_no":3}],"corrections":[]}
38bbfac0225b49628efaae2fbd9ba258	4	33	{"deal_no":4,"dealer":"Ada","kind":"single","trump_card":"4D","dealt":["Ben","Cat","Ada"],"fresh":true,"forced":null,"miss":false,"face_up":{"Ben":"4H","Cat":"QH","Ada":"6D"},"phase":"settled","redeals":0,"declarations":{},"standing":[],"entry":null,"tricks":[],"current_trick":[],"first_play":null,"hands":{},"replay":null,"replay_asked_by":null,"pool_at_play_units":null,"penalties":[],"abandoned":{},"breaches":[],"postings":[{"from":"Ada","to":"pool","amount_units":3,"reason":"deal","deal_no":4},{"from":"next_pool","to":"pool","amount_units":6,"reason":"brought_forward","deal_no":4},{"from":"pool","to":"Ada","amount_units":9,"reason":"pool_taken","deal_no":4},{"from":"Ben","to":"next_pool","amount_units":3,"reason":"single_loo","deal_no":4,"loo":true},{"from":"Cat","to":"next_pool","amount_units":3,"reason":"single_loo","deal_no":4,"loo":true}],"settlement":{"deal_no":4,"outcome":"single-won","pool_units":9,"loo_units":3,"shares":[],"looed":["Ben","Cat"],"carried_units":0,"next_fresh":false,"next_forced":null},"pool_units":0,"contributions":[{"from":"Ada","to":"pool","amount_units":3,"reason":"deal","deal_no":4},{"from":"next_pool","to":"pool","amount_units":6,"reason":"brought_forward","deal_no":4}],"corrections":[]}
38bbfac0225b49628efaae2fbd9ba258	5	59	{"deal_no":5,"dealer":"Ben","kind":"hand","trump_card":"KH","dealt":["Cat","Ada","Ben"],"fresh":false,"forced":null,"miss":true,"face_up":{},"phase":"settled","redeals":0,"declarations":{"Cat":"play","Ada":"take_miss","Ben":"throw_up"},"standing":[{"player":"Cat","hand":"own"},{"player":"Ada","hand":"miss"}],"entry":"cards","tricks":[{"trick":1,"winner":"Ada","cards":[["Cat","5D"],["Ada","AH"]]},{"trick":2,"winner":"Cat","cards":[["Ada","2S"],["Cat","9S"]]},{"trick":3,"winner":"Cat","cards":[["Cat","6H"],["Ada","KS"]]}],"current_trick":[],"first_play":[{"trick":1,"winner":"Cat","cards":[["Cat","9S"],["Ada","2S"]]},{"trick":2,"winner":"Ada","cards":[["Cat","6H"],["Ada","AH"]]},{"trick":3,"winner":"Ada","cards":[["Ada","KS"],["Cat","5D"]]}],"hands":{"Cat":["9S","6H","5D"],"Ada":["2S","AH","KS"]},"replay":"done","replay_asked_by":null,"pool_at_play_units":9,"penalties":[{"deal_no":5,"player":"Ada","offence":"not-heading","law":"Baxter-Wray p. 21: compulsory to head the trick if able","amount_units":6,"destination":"next_pool","kind":"loo","forfeits_winnings":true,"throw_up":false,"redeal":false,"replay":"required","detected":true,"evidence":{"player":"Ada","rule":"not-heading","trick":1,"card":"2S","held":["AH","KS","2S"],"detail":"could head 9S with KS, played 2S"},"postings":[{"from":"Ada","to":"next_pool","amount_units":6,"reason":"penalty","offence":"not-heading","deal_no":5,"loo":true}],"stage":"in-play","leaves_play":false,"hand":0}],"abandoned":{},"breaches":[{"deal_no":5,"player":"Ada","rule":"not-heading","trick":1,"card":"2S","held":["AH","KS","2S"],"detail":"could head 9S with KS, played 2S","replay":false}],"postings":[{"from":"Ben","to":"pool","amount_units":3,"reason":"deal","deal_no":5},{"from":"next_pool","to":"pool","amount_units":6,"reason":"brought_forward","deal_no":5},{"from":"Ada","to":"next_pool","amount_units":6,"reason":"penalty","offence":"not-heading","deal_no":5,"loo":true},{"from":"pool","to":"Cat","amount_units":3,"reason":"trick","deal_no":5},{"from":"pool","to":"Cat","amount_units":3,"reason":"trick","deal_no":5},{"from":"pool","to":"next_pool","amount_units":3,"reason":"carried_forward","deal_no":5}],"settlement":{"deal_no":5,"outcome":"divided","pool_units":9,"loo_units":6,"shares":[{"trick":1,"winner":"Ada","amount_units":3,"paid_to":null,"stays_in_pool":"forfeited"},{"trick":2,"winner":"Cat","amount_units":3,"paid_to":"Cat","stays_in_pool":null},{"trick":3,"winner":"Cat","amount_units":3,"paid_to":"Cat","stays_in_pool":null}],"looed":[],"carried_units":3,"next_fresh":false,"next_forced":null},"pool_units":0,"contributions":[{"from":"Ben","to":"pool","amount_units":3,"reason":"deal","deal_no":5},{"from":"next_pool","to":"pool","amount_units":6,"reason":"brought_forward","deal_no":5}],"corrections":[]}
38bbfac0225b49628efaae2fbd9ba258	6	75	{"deal_no":6,"dealer":"Cat","kind":"hand","trump_card":"KC","dealt":["Ada","Ben","Cat"],"fresh":false,"forced":null,"miss":true,"face_up":{},"phase":"settled","redeals":0,"declarations":{"Ada":"play","Ben":"throw_up","Cat":"play"},"standing":[{"player":"Ada","hand":"own"},{"player":"Cat","hand":"own"}],"entry":"cards","tricks":[{"trick":1,"winner":"Ada","cards":[["Ada","3C"],["Cat","5H"]]},{"trick":2,"winner":"Ada","cards":[["Ada","2C"],["Cat","9H"]]},{"trick":3,"winner":"Ada","cards":[["Ada","6S"],["Cat","10H"]]}],"current_trick":[],"first_play":null,"hands":{"Ada":["3C","2C","6S"],"Cat":["5H","9H","10H"]},"replay":null,"replay_asked_by":null,"pool_at_play_units":12,"penalties":[{"deal_no":6,"player":"Ben","offence":"interfering-with-deal","law":"Baxter-Wray p. 24: interfering with the cards during the deal, single loo; redeal only if cards were mixed or exposed","amount_units":3,"destination":"pool","kind":"fine","forfeits_winnings":false,"throw_up":false,"redeal":false,"replay":"none","detected":false,"evidence":{},"postings":[{"from":"Ben","to":"pool","amount_units":3,"reason":"penalty","offence":"interfering-with-deal","deal_no":6,"loo":false}],"stage":"pre-play","leaves_play":false,"hand":0}],"abandoned":{},"breaches":[],"postings":[{"from":"Cat","to":"pool","amount_units":3,"reason":"deal","deal_no":6},{"from":"next_pool","to":"pool","amount_units":9,"reason":"brought_forward","deal_no":6},{"from":"Ben","to":"pool","amount_units":3,"reason":"penalty","offence":"interfering-with-deal","deal_no":6,"loo":false},{"from":"pool","to":"Ada","amount_units":5,"reason":"trick","deal_no":6},{"from":"pool","to":"Ada","amount_units":5,"reason":"trick","deal_no":6},{"from":"pool","to":"Ada","amount_units":5,"reason":"trick","deal_no":6},{"from":"Cat","to":"next_pool","amount_units":6,"reason":"loo","deal_no":6,"loo":true}],"settlement":{"deal_no":6,"outcome":"divided","pool_units":15,"loo_units":6,"shares":[{"trick":1,"winner":"Ada","amount_units":5,"paid_to":"Ada","stays_in_pool":null},{"trick":2,"winner":"Ada","amount_units":5,"paid_to":"Ada","stays_in_pool":null},{"trick":3,"winner":"Ada","amount_units":5,"paid_to":"Ada","stays_in_pool":null}],"looed":["Cat"],"carried_units":0,"next_fresh":false,"next_forced":null},"pool_units":0,"contributions":[{"from":"Cat","to":"pool","amount_units":3,"reason":"deal","deal_no":6},{"from":"next_pool","to":"pool","amount_units":9,"reason":"brought_forward","deal_no":6},{"from":"Ben","to":"pool","amount_units":3,"reason":"penalty","offence":"interfering-with-deal","deal_no":6,"loo":false}],"corrections":[]}
005db11b0985430493ac0fc9f0e1bedd	1	16	{"deal_no":1,"dealer":"Dan","kind":"hand","trump_card":"9D","dealt":["Ada","Ben","Cat","Dan"],"fresh":true,"forced":null,"miss":true,"face_up":{},"phase":"settled","redeals":0,"declarations":{"Ada":"take_miss","Ben":"throw_up","Cat":"throw_up","Dan":"play"},"standing":[{"player":"Ada","hand":"miss"},{"player":"Dan","hand":"own"}],"entry":"cards","tricks":[{"trick":1,"winner":"Ada","cards":[["Ada","KD"],["Dan","10D"]]},{"trick":2,"winner":"Ada","cards":[["Ada","4D"],["Dan","6H"]]},{"trick":3,"winner":"Ada","cards":[["Ada","3D"],["Dan","5H"]]}],"current_trick":[],"first_play":null,"hands":{"Ada":["KD","4D","3D"],"Dan":["10D","6H","5H"]},"replay":null,"replay_asked_by":null,"pool_at_play_units":15,"penalties":[],"abandoned":{},"breaches":[],"postings":[{"from":"Dan","to":"pool","amount_units":6,"reason":"deal","deal_no":1},{"from":"Ada","to":"pool","amount_units":3,"reason":"ante","deal_no":1},{"from":"Ben","to":"pool","amount_units":3,"reason":"ante","deal_no":1},{"from":"Cat","to":"pool","amount_units":3,"reason":"ante","deal_no":1},{"from":"pool","to":"Ada","amount_units":5,"reason":"trick","deal_no":1},{"from":"pool","to":"Ada","amount_units":5,"reason":"trick","deal_no":1},{"from":"pool","to":"Ada","amount_units":5,"reason":"trick","deal_no":1},{"from":"Dan","to":"next_pool","amount_units":9,"reason":"loo","deal_no":1,"loo":true}],"settlement":{"deal_no":1,"outcome":"divided","pool_units":15,"loo_units":9,"shares":[{"trick":1,"winner":"Ada","amount_units":5,"paid_to":"Ada","stays_in_pool":null},{"trick":2,"winner":"Ada","amount_units":5,"paid_to":"Ada","stays_in_pool":null},{"trick":3,"winner":"Ada","amount_units":5,"paid_to":"Ada","stays_in_pool":null}],"looed":["Dan"],"carried_units":0,"next_fresh":false,"next_forced":null},"pool_units":0,"contributions":[{"from":"Dan","to":"pool","amount_units":6,"reason":"deal","deal_no":1},{"from":"Ada","to":"pool","amount_units":3,"reason":"ante","deal_no":1},{"from":"Ben","to":"pool","amount_units":3,"reason":"ante","deal_no":1},{"from":"Cat","to":"pool","amount_units":3,"reason":"ante","deal_no":1}],"corrections":[]}
005db11b0985430493ac0fc9f0e1bedd	2	26	{"deal_no":2,"dealer":"Ada","kind":"hand","trump_card":"9H","dealt":["Ben","Cat","Dan","Ada"],"fresh":false,"forced":null,"miss":true,"face_up":{},"phase":"settled","redeals":0,"declarations":{"Ben":"throw_up","Cat":"take_miss","Dan":"throw_up","Ada":"play"},"standing":[{"player":"Cat","hand":"miss"},{"player":"Ada","hand":"own"}],"entry":"quick","tricks":[{"trick":1,"winner":"Ada","cards":[]},{"trick":2,"winner":"Ada","cards":[]},{"trick":3,"winner":"Ada","cards":[]}],"current_trick":[],"first_play":null,"hands":{},"replay":null,"replay_asked_by":null,"pool_at_play_units":12,"penalties":[],"abandoned":{},"breaches":[],"postings":[{"from":"Ada","to":"pool","amount_units":3,"reason":"deal","deal_no":2},{"from":"next_pool","to":"pool","amount_units":9,"reason":"brought_forward","deal_no":2},{"from":"pool","to":"Ada","amount_units":4,"reason":"trick","deal_no":2},{"from":"pool","to":"Ada","amount_units":4,"reason":"trick","deal_no":2},{"from":"pool","to":"Ada","amount_units":4,"reason":"trick","deal_no":2},{"from":"Cat","to":"next_pool","amount_units":9,"reason":"loo","deal_no":2,"loo":true}],"settlement":{"deal_no":2,"outcome":"divided","pool_units":12,"loo_units":9,"shares":[{"trick":1,"winner":"Ada","amount_units":4,"paid_to":"Ada","stays_in_pool":null},{"trick":2,"winner":"Ada","amount_units":4,"paid_to":"Ada","stays_in_pool":null},{"trick":3,"winner":"Ada","amount_units":4,"paid_to":"Ada","stays_in_pool":null}],"looed":["Cat"],"carried_units":0,"next_fresh":false,"next_forced":null},"pool_units":0,"contributions":[{"from":"Ada","to":"pool","amount_units":3,"reason":"deal","deal_no":2},{"from":"next_pool","to":"pool","amount_units":9,"reason":"brought_forward","deal_no":2}],"corrections":[]}
005db11b0985430493ac0fc9f0e1bedd	3	38	{"deal_no":3,"dealer":"Cat","kind":"hand","trump_card":"AD","dealt":["Dan","Hal","Ada","Ben","Cat"],"fresh":false,"forced":null,"miss":true,"face_up":{},"phase":"settled","redeals":0,"declarations":{"Dan":"throw_up","Hal":"throw_up","Ada":"take_miss","Ben":"throw_up","Cat":"play"},"standing":[{"player":"Ada","hand":"miss"},{"player":"Cat","hand":"own"}],"entry":"quick","tricks":[{"trick":1,"winner":"Cat","cards":[]},{"trick":2,"winner":"Ada","cards":[]},{"trick":3,"winner":"Cat","cards":[]}],"current_trick":[],"first_play":null,"hands":{},"replay":null,"replay_asked_by":null,"pool_at_play_units":15,"penalties":[{"deal_no":3,"player":"Dan","offence":"looked-at-own-cards","law":"Blenheim law 7: looking at his cards before his turn","amount_units":3,"destination":"pool","kind":"fine","forfeits_winnings":false,"throw_up":false,"redeal":false,"replay":"none","detected":false,"evidence":{},"postings":[{"from":"Dan","to":"pool","amount_units":3,"reason":"penalty","offence":"looked-at-own-cards","deal_no":3,"loo":false}],"stage":"pre-play","leaves_play":false,"hand":0}],"abandoned":{},"breaches":[],"postings":[{"from":"Cat","to":"pool","amount_units":3,"reason":"deal","deal_no":3},{"from":"next_pool","to":"pool","amount_units":9,"reason":"brought_forward","deal_no":3},{"from":"Dan","to":"pool","amount_units":3,"reason":"penalty","offence":"looked-at-own-cards","deal_no":3,"loo":false},{"from":"pool","to":"Cat","amount_units":5,"reason":"trick","deal_no":3},{"from":"pool","to":"Ada","amount_units":5,"reason":"trick","deal_no":3},{"from":"pool","to":"Cat","amount_units":5,"reason":"trick","deal_no":3}],"settlement":{"deal_no":3,"outcome":"divided","pool_units":15,"loo_units":9,"shares":[{"trick":1,"winner":"Cat","amount_units":5,"paid_to":"Cat","stays_in_pool":null},{"trick":2,"winner":"Ada","amount_units":5,"paid_to":"Ada","stays_in_pool":null},{"trick":3,"winner":"Cat","amount_units":5,"paid_to":"Cat","stays_in_pool":null}],"looed":[],"carried_units":0,"next_fresh":true,"next_forced":null},"pool_units":0,"contributions":[{"from":"Cat","to":"pool","amount_units":3,"reason":"deal","deal_no":3},{"from":"next_pool","to":"pool","amount_units":9,"reason":"brought_forward","deal_no":3},{"from":"Dan","to":"pool","amount_units":3,"reason":"penalty","offence":"looked-at-own-cards","deal_no":3,"loo":false}],"corrections":[]}
4f5d314d22a444aead06f2088706fba1	1	22	{"deal_no":1,"dealer":"Ada","kind":"hand","trump_card":"7D","dealt":["Ben","Cat","Dan","Ada"],"fresh":true,"forced":null,"miss":true,"face_up":{},"phase":"settled","redeals":0,"declarations":{"Ben":"play","Cat":"play","Dan":"take_miss","Ada":"play"},"standing":[{"player":"Ben","hand":"own"},{"player":"Cat","hand":"own"},{"player":"Dan","hand":"miss"},{"player":"Ada","hand":"own"}],"entry":"cards","tricks":[{"trick":1,"winner":"Ada","cards":[["Ben","7S"],["Cat","JS"],["Dan","4S"],["Ada","QS"]]},{"trick":2,"winner":"Dan","cards":[["Ada","AH"],["Ben","9H"],["Cat","10H"],["Dan","10D"]]},{"trick":3,"winner":"Dan","cards":[["Dan","9C"],["Ada","6H"],["Ben","10S"],["Cat","8C"]]}],"current_trick":[],"first_play":null,"hands":{"Ben":["7S","9H","10S"],"Cat":["JS","10H","8C"],"Dan":["4S","10D","9C"],"Ada":["QS","AH","6H"]},"replay":null,"replay_asked_by":null,"pool_at_play_units":1,"penalties":[],"abandoned":{},"breaches":[],"postings":[{"from":"Ada","to":"pool","amount_units":1,"reason":"deal","deal_no":1},{"from":"pool","to":"Ada","amount_units":1,"reason":"trick","deal_no":1},{"from":"Ben","to":"next_pool","amount_units":3,"reason":"loo","deal_no":1,"loo":true},{"from":"Cat","to":"next_pool","amount_units":3,"reason":"loo","deal_no":1,"loo":true}],"settlement":{"deal_no":1,"outcome":"divided","pool_units":1,"loo_units":3,"shares":[{"trick":1,"winner":"Ada","amount_units":1,"paid_to":"Ada","stays_in_pool":null},{"trick":2,"winner":"Dan","amount_units":0,"paid_to":"Dan","stays_in_pool":null},{"trick":3,"winner":"Dan","amount_units":0,"paid_to":"Dan","stays_in_pool":null}],"looed":["Ben","Cat"],"carried_units":0,"next_fresh":false,"next_forced":null},"pool_units":0,"contributions":[{"from":"Ada","to":"pool","amount_units":1,"reason":"deal","deal_no":1}],"corrections":[]}
4f5d314d22a444aead06f2088706fba1	2	33	{"deal_no":2,"dealer":"Ben","kind":"hand","trump_card":"2S","dealt":["Cat","Dan","Ada","Ben"],"fresh":false,"forced":null,"miss":true,"face_up":{},"phase":"settled","redeals":0,"declarations":{"Cat":"throw_up","Dan":"play","Ada":"play","Ben":"play"},"standing":[{"player":"Dan","hand":"own"},{"player":"Ada","hand":"own"},{"player":"Ben","hand":"own"}],"entry":"quick","tricks":[{"trick":1,"winner":"Ada","cards":[]},{"trick":2,"winner":"Ben","cards":[]},{"trick":3,"winner":"Ada","cards":[]}],"current_trick":[],"first_play":null,"hands":{},"replay":null,"replay_asked_by":null,"pool_at_play_units":7,"penalties":[{"deal_no":2,"player":"Ada","offence":"looked-at-another-hand","law":"Enquire Within §97 vi: looking at a neighbour's hand","amount_units":3,"destination":"next_pool","kind":"loo","forfeits_winnings":false,"throw_up":false,"redeal":false,"replay":"none","detected":false,"evidence":{},"postings":[{"from":"Ada","to":"next_pool","amount_units":3,"reason":"penalty","offence":"looked-at-another-hand","deal_no":2,"loo":true}],"stage":"pre-play","leaves_play":false,"hand":0},{"deal_no":2,"player":"Dan","offence":"played-out-of-turn","law":"Enquire Within §97 ii: playing out of turn","amount_units":3,"destination":"next_pool","kind":"loo","forfeits_winnings":false,"throw_up":false,"redeal":false,"replay":"none","detected":false,"evidence":{},"postings":[{"from":"Dan","to":"next_pool","amount_units":3,"reason":"penalty","offence":"played-out-of-turn","deal_no":2,"loo":true}],"stage":"in-play","leaves_play":false,"hand":0}],"abandoned":{},"breaches":[],"postings":[{"from":"Ben","to":"pool","amount_units":1,"reason":"deal","deal_no":2},{"from":"next_pool","to":"pool","amount_units":6,"reason":"brought_forward","deal_no":2},{"from":"Ada","to":"next_pool","amount_units":3,"reason":"penalty","offence":"looked-at-another-hand","deal_no":2,"loo":true},{"from":"Dan","to":"next_pool","amount_units":3,"reason":"penalty","offence":"played-out-of-turn","deal_no":2,"loo":true},{"from":"pool","to":"Ada","amount_units":3,"reason":"trick","deal_no":2},{"from":"pool","to":"Ben","amount_units":2,"reason":"trick","deal_no":2},{"from":"pool","to":"Ada","amount_units":2,"reason":"trick","deal_no":2}],"settlement":{"deal_no":2,"outcome":"divided","pool_units":7,"loo_units":3,"shares":[{"trick":1,"winner":"Ada","amount_units":3,"paid_to":"Ada","stays_in_pool":null},{"trick":2,"winner":"Ben","amount_units":2,"paid_to":"Ben","stays_in_pool":null},{"trick":3,"winner":"Ada","amount_units":2,"paid_to":"Ada","stays_in_pool":null}],"looed":[],"carried_units":0,"next_fresh":false,"next_forced":null},"pool_units":0,"contributions":[{"from":"Ben","to":"pool","amount_units":1,"reason":"deal","deal_no":2},{"from":"next_pool","to":"pool","amount_units":6,"reason":"brought_forward","deal_no":2}],"corrections":[]}
4f5d314d22a444aead06f2088706fba1	3	48	{"deal_no":3,"dealer":"Cat","kind":"hand","trump_card":"KH","dealt":["Dan","Ada","Ben","Cat"],"fresh":false,"forced":null,"miss":true,"face_up":{},"phase":"settled","redeals":0,"declarations":{"Dan":"play","Ada":"throw_up","Ben":"take_miss","Cat":"throw_up"},"standing":[{"player":"Dan","hand":"own"},{"player":"Ben","hand":"miss"}],"entry":"cards","tricks":[{"trick":1,"winner":"Ben","cards":[["Dan","3S"],["Ben","7S"]]},{"trick":2,"winner":"Dan","cards":[["Ben","2D"],["Dan","AD"]]},{"trick":3,"winner":"Dan","cards":[["Dan","4H"],["Ben","QD"]]}],"current_trick":[],"first_play":null,"hands":{"Dan":["3S","AD","4H"],"Ben":["7S","2D","QD"]},"replay":null,"replay_asked_by":null,"pool_at_play_units":7,"penalties":[],"abandoned":{},"breaches":[],"postings":[{"from":"Cat","to":"pool","amount_units":1,"reason":"deal","deal_no":3},{"from":"next_pool","to":"pool","amount_units":6,"reason":"brought_forward","deal_no":3},{"from":"pool","to":"Ben","amount_units":3,"reason":"trick","deal_no":3},{"from":"pool","to":"Dan","amount_units":2,"reason":"trick","deal_no":3},{"from":"pool","to":"Dan","amount_units":2,"reason":"trick","deal_no":3}],"settlement":{"deal_no":3,"outcome":"divided","pool_units":7,"loo_units":3,"shares":[{"trick":1,"winner":"Ben","amount_units":3,"paid_to":"Ben","stays_in_pool":null},{"trick":2,"winner":"Dan","amount_units":2,"paid_to":"Dan","stays_in_pool":null},{"trick":3,"winner":"Dan","amount_units":2,"paid_to":"Dan","stays_in_pool":null}],"looed":[],"carried_units":0,"next_fresh":true,"next_forced":null},"pool_units":0,"contributions":[{"from":"Cat","to":"pool","amount_units":1,"reason":"deal","deal_no":3},{"from":"next_pool","to":"pool","amount_units":6,"reason":"brought_forward","deal_no":3}],"corrections":[]}
4f5d314d22a444aead06f2088706fba1	4	69	{"deal_no":4,"dealer":"Dan","kind":"hand","trump_card":"6H","dealt":["Ada","Ben","Cat","Dan"],"fresh":true,"forced":null,"miss":true,"face_up":{},"phase":"settled","redeals":0,"declarations":{"Ada":"play","Ben":"take_miss","Cat":"play","Dan":"play"},"standing":[{"player":"Ada","hand":"own"},{"player":"Ben","hand":"miss"},{"player":"Cat","hand":"own"},{"player":"Dan","hand":"own"}],"entry":"cards","tricks":[{"trick":1,"winner":"Ada","cards":[["Ada","JH"],["Ben","2H"],["Cat","7H"],["Dan","AC"]]},{"trick":2,"winner":"Ben","cards":[["Ada","10D"],["Ben","KD"],["Cat","JC"],["Dan","KS"]]},{"trick":3,"winner":"Ben","cards":[["Ben","9S"],["Cat","5S"],["Dan","9C"],["Ada","10C"]]}],"current_trick":[],"first_play":null,"hands":{"Ada":["JH","10D","10C"],"Ben":["2H","KD","9S"],"Cat":["7H","JC","5S"],"Dan":["AC","KS","9C"]},"replay":null,"replay_asked_by":null,"pool_at_play_units":1,"penalties":[],"abandoned":{},"breaches":[],"postings":[{"from":"Dan","to":"pool","amount_units":1,"reason":"deal","deal_no":4},{"from":"pool","to":"Ada","amount_units":1,"reason":"trick","deal_no":4},{"from":"Cat","to":"next_pool","amount_units":3,"reason":"loo","deal_no":4,"loo":true},{"from":"Dan","to":"next_pool","amount_units":3,"reason":"loo","deal_no":4,"loo":true}],"settlement":{"deal_no":4,"outcome":"divided","pool_units":1,"loo_units":3,"shares":[{"trick":1,"winner":"Ada","amount_units":1,"paid_to":"Ada","stays_in_pool":null},{"trick":2,"winner":"Ben","amount_units":0,"paid_to":"Ben","stays_in_pool":null},{"trick":3,"winner":"Ben","amount_units":0,"paid_to":"Ben","stays_in_pool":null}],"looed":["Cat","Dan"],"carried_units":0,"next_fresh":false,"next_forced":null},"pool_units":0,"contributions":[{"from":"Dan","to":"pool","amount_units":1,"reason":"deal","deal_no":4}],"corrections":[]}
4f5d314d22a444aead06f2088706fba1	6	100	{"deal_no":6,"dealer":"Ben","kind":"hand","trump_card":"8C","dealt":["Cat","Dan","Ada","Ben"],"fresh":false,"forced":null,"miss":true,"face_up":{},"phase":"settled","redeals":0,"declarations":{"Cat":"take_miss","Dan":"play","Ada":"throw_up","Ben":"throw_up"},"standing":[{"player":"Cat","hand":"miss"},{"player":"Dan","hand":"own"}],"entry":"cards","tricks":[{"trick":1,"winner":"Cat","cards":[["Cat","AC"],["Dan","5C"]]},{"trick":2,"winner":"Cat","cards":[["Cat","JS"],["Dan","2D"]]},{"trick":3,"winner":"Cat","cards":[["Cat","QS"],["Dan","JD"]]}],"current_trick":[],"first_play":null,"hands":{"Cat":["AC","JS","QS"],"Dan":["5C","2D","JD"]},"replay":null,"replay_asked_by":null,"pool_at_play_units":4,"penalties":[],"abandoned":{},"breaches":[],"postings":[{"from":"Ben","to":"pool","amount_units":1,"reason":"deal","deal_no":6},{"from":"next_pool","to":"pool","amount_units":3,"reason":"brought_forward","deal_no":6},{"from":"pool","to":"Cat","amount_units":2,"reason":"trick","deal_no":6},{"from":"pool","to":"Cat","amount_units":1,"reason":"trick","deal_no":6},{"from":"pool","to":"Cat","amount_units":1,"reason":"trick","deal_no":6},{"from":"Dan","to":"next_pool","amount_units":3,"reason":"loo","deal_no":6,"loo":true}],"settlement":{"deal_no":6,"outcome":"divided","pool_units":4,"loo_units":3,"shares":[{"trick":1,"winner":"Cat","amount_units":2,"paid_to":"Cat","stays_in_pool":null},{"trick":2,"winner":"Cat","amount_units":1,"paid_to":"Cat","stays_in_pool":null},{"trick":3,"winner":"Cat","amount_units":1,"paid_to":"Cat","stays_in_pool":null}],"looed":["Dan"],"carried_units":0,"next_fresh":false,"next_forced":null},"pool_units":0,"contributions":[{"from":"Ben","to":"pool","amount_units":1,"reason":"deal","deal_no":6},{"from":"next_pool","to":"pool","amount_units":3,"reason":"brought_forward","deal_no":6}],"corrections":[]}
4f5d314d22a444aead06f2088706fba1	5	84	{"deal_no":5,"dealer":"Ada","kind":"hand","trump_card":"3H","dealt":["Ben","Cat","Dan","Ada"],"fresh":false,"forced":null,"miss":true,"face_up":{},"phase":"settled","redeals":0,"declarations":{"Ben":"throw_up","Cat":"throw_up","Dan":"play","Ada":"play"},"standing":[{"player":"Dan","hand":"own"},{"player":"Ada","hand":"own"}],"entry":"cards","tricks":[{"trick":1,"winner":"Dan","cards":[["Dan","10H"],["Ada","9S"]]},{"trick":2,"winner":"Dan","cards":[["Dan","AC"],["Ada","5C"]]},{"trick":3,"winner":"Dan","cards":[["Dan","KS"],["Ada","6D"]]}],"current_trick":[],"first_play":null,"hands":{"Dan":["10H","AC","KS"],"Ada":["9S","5C","6D"]},"replay":null,"replay_asked_by":null,"pool_at_play_units":7,"penalties":[],"abandoned":{},"breaches":[],"postings":[{"from":"Ada","to":"pool","amount_units":1,"reason":"deal","deal_no":5},{"from":"next_pool","to":"pool","amount_units":6,"reason":"brought_forward","deal_no":5},{"from":"pool","to":"Dan","amount_units":3,"reason":"trick","deal_no":5},{"from":"pool","to":"Dan","amount_units":2,"reason":"trick","deal_no":5},{"from":"pool","to":"Dan","amount_units":2,"reason":"trick","deal_no":5},{"from":"Ada","to":"next_pool","amount_units":3,"reason":"loo","deal_no":5,"loo":true}],"settlement":{"deal_no":5,"outcome":"divided","pool_units":7,"loo_units":3,"shares":[{"trick":1,"winner":"Dan","amount_units":3,"paid_to":"Dan","stays_in_pool":null},{"trick":2,"winner":"Dan","amount_units":2,"paid_to":"Dan","stays_in_pool":null},{"trick":3,"winner":"Dan","amount_units":2,"paid_to":"Dan","stays_in_pool":null}],"looed":["Ada"],"carried_units":0,"next_fresh":false,"next_forced":null},"pool_units":0,"contributions":[{"from":"Ada","to":"pool","amount_units":1,"reason":"deal","deal_no":5},{"from":"next_pool","to":"pool","amount_units":6,"reason":"brought_forward","deal_no":5}],"corrections":[]}
f65c7addebe04aecbb4d4228f4ecf2b6	1	19	{"deal_no":1,"dealer":"Ada","kind":"hand","trump_card":"6S","dealt":["Ben","Cat","Dan","Eve","Fay","Gus","Ada"],"fresh":true,"forced":null,"miss":true,"face_up":{},"phase":"settled","redeals":0,"declarations":{"Ben":"throw_up","Cat":"throw_up","Dan":"throw_up","Eve":"play","Fay":"play","Gus":"throw_up","Ada":"throw_up"},"standing":[{"player":"Eve","hand":"own"},{"player":"Fay","hand":"own"}],"entry":"cards","tricks":[{"trick":1,"winner":"Eve","cards":[["Eve","2S"],["Fay","8C"]]},{"trick":2,"winner":"Eve","cards":[["Eve","8D"],["Fay","2H"]]},{"trick":3,"winner":"Eve","cards":[["Eve","AD"],["Fay","JH"]]}],"current_trick":[],"first_play":null,"hands":{"Eve":["2S","8D","AD"],"Fay":["8C","2H","JH"]},"replay":null,"replay_asked_by":null,"pool_at_play_units":21,"penalties":[],"abandoned":{},"breaches":[],"postings":[{"from":"Ada","to":"pool","amount_units":3,"reason":"deal","deal_no":1},{"from":"Ben","to":"pool","amount_units":3,"reason":"ante","deal_no":1},{"from":"Cat","to":"pool","amount_units":3,"reason":"ante","deal_no":1},{"from":"Dan","to":"pool","amount_units":3,"reason":"ante","deal_no":1},{"from":"Eve","to":"pool","amount_units":3,"reason":"ante","deal_no":1},{"from":"Fay","to":"pool","amount_units":3,"reason":"ante","deal_no":1},{"from":"Gus","to":"pool","amount_units":3,"reason":"ante","deal_no":1},{"from":"pool","to":"Eve","amount_units":7,"reason":"trick","deal_no":1},{"from":"pool","to":"Eve","amount_units":7,"reason":"trick","deal_no":1},{"from":"pool","to":"Eve","amount_units":7,"reason":"trick","deal_no":1},{"from":"Fay","to":"next_pool","amount_units":3,"reason":"loo","deal_no":1,"loo":true}],"settlement":{"deal_no":1,"outcome":"divided","pool_units":21,"loo_units":3,"shares":[{"trick":1,"winner":"Eve","amount_units":7,"paid_to":"Eve","stays_in_pool":null},{"trick":2,"winner":"Eve","amount_units":7,"paid_to":"Eve","stays_in_pool":null},{"trick":3,"winner":"Eve","amount_units":7,"paid_to":"Eve","stays_in_pool":null}],"looed":["Fay"],"carried_units":0,"next_fresh":false,"next_forced":null},"pool_units":0,"contributions":[{"from":"Ada","to":"pool","amount_units":3,"reason":"deal","deal_no":1},{"from":"Ben","to":"pool","amount_units":3,"reason":"ante","deal_no":1},{"from":"Cat","to":"pool","amount_units":3,"reason":"ante","deal_no":1},{"from":"Dan","to":"pool","amount_units":3,"reason":"ante","deal_no":1},{"from":"Eve","to":"pool","amount_units":3,"reason":"ante","deal_no":1},{"from":"Fay","to":"pool","amount_units":3,"reason":"ante","deal_no":1},{"from":"Gus","to":"pool","amount_units":3,"reason":"ante","deal_no":1}],"corrections":[]}
f65c7addebe04aecbb4d4228f4ecf2b6	2	42	{"deal_no":2,"dealer":"Ben","kind":"hand","trump_card":"JS","dealt":["Cat","Dan","Eve","Fay","Gus","Ada","Ben"],"fresh":false,"forced":null,"miss":true,"face_up":{},"phase":"settled","redeals":0,"declarations":{"Cat":"throw_up","Dan":"throw_up","Eve":"take_miss","Fay":"play","Gus":"throw_up","Ada":"play","Ben":"throw_up"},"standing":[{"player":"Eve","hand":"miss"},{"player":"Fay","hand":"own"},{"player":"Ada","hand":"own"}],"entry":"cards","tricks":[{"trick":1,"winner":"Eve","cards":[["Eve","AD"],["Fay","9H"],["Ada","QD"]]},{"trick":2,"winner":"Eve","cards":[["Eve","5D"],["Fay","5H"],["Ada","7H"]]},{"trick":3,"winner":"Ada","cards":[["Eve","7C"],["Fay","JH"],["Ada","JC"]]}],"current_trick":[],"first_play":null,"hands":{"Eve":["AD","5D","7C"],"Fay":["9H","5H","JH"],"Ada":["QD","7H","JC"]},"replay":null,"replay_asked_by":null,"pool_at_play_units":6,"penalties":[{"deal_no":2,"player":"Dan","offence":"looked-at-miss","law":"Cassell, Looed: looking at the miss","amount_units":null,"destination":"next_pool-at-settlement","kind":"loo","forfeits_winnings":false,"throw_up":false,"redeal":false,"replay":"none","detected":false,"evidence":{},"postings":[],"stage":"pre-play","leaves_play":false,"hand":0},{"deal_no":2,"player":"Fay","offence":"looked-at-own-cards","law":"Cassell, Looed: looking at his own cards out of turn","amount_units":3,"destination":"next_pool","kind":"loo","forfeits_winnings":false,"throw_up":false,"redeal":false,"replay":"none","detected":false,"evidence":{},"postings":[{"from":"Fay","to":"next_pool","amount_units":3,"reason":"penalty","offence":"looked-at-own-cards","deal_no":2,"loo":true}],"stage":"pre-play","leaves_play":false,"hand":0}],"abandoned":{},"breaches":[],"postings":[{"from":"Ben","to":"pool","amount_units":3,"reason":"deal","deal_no":2},{"from":"next_pool","to":"pool","amount_units":3,"reason":"brought_forward","deal_no":2},{"from":"Fay","to":"next_pool","amount_units":3,"reason":"penalty","offence":"looked-at-own-cards","deal_no":2,"loo":true},{"from":"pool","to":"Eve","amount_units":2,"reason":"trick","deal_no":2},{"from":"pool","to":"Eve","amount_units":2,"reason":"trick","deal_no":2},{"from":"pool","to":"Ada","amount_units":2,"reason":"trick","deal_no":2},{"from":"Fay","to":"next_pool","amount_units":3,"reason":"loo","deal_no":2,"loo":true},{"from":"Dan","to":"next_pool","amount_units":3,"reason":"penalty","offence":"looked-at-miss","deal_no":2,"loo":true}],"settlement":{"deal_no":2,"outcome":"divided","pool_units":6,"loo_units":3,"shares":[{"trick":1,"winner":"Eve","amount_units":2,"paid_to":"Eve","stays_in_pool":null},{"trick":2,"winner":"Eve","amount_units":2,"paid_to":"Eve","stays_in_pool":null},{"trick":3,"winner":"Ada","amount_units":2,"paid_to":"Ada","stays_in_pool":null}],"looed":["Fay"],"carried_units":0,"next_fresh":false,"next_forced":null},"pool_units":0,"contributions":[{"from":"Ben","to":"pool","amount_units":3,"reason":"deal","deal_no":2},{"from":"next_pool","to":"pool","amount_units":3,"reason":"brought_forward","deal_no":2}],"corrections":[]}
f65c7addebe04aecbb4d4228f4ecf2b6	3	62	{"deal_no":3,"dealer":"Cat","kind":"hand","trump_card":"4H","dealt":["Dan","Eve","Fay","Gus","Ada","Ben","Cat"],"fresh":false,"forced":null,"miss":true,"face_up":{},"phase":"settled","redeals":0,"declarations":{"Dan":"throw_up","Eve":"throw_up","Fay":"throw_up","Gus":"throw_up","Ada":"throw_up","Ben":"play","Cat":"play_miss_for_pool"},"standing":[{"player":"Ben","hand":"own"},{"player":"Cat","hand":"miss-for-pool"}],"entry":"cards","tricks":[{"trick":1,"winner":"Cat","cards":[["Ben","QC"],["Cat","AC"]]},{"trick":2,"winner":"Cat","cards":[["Cat","7D"],["Ben","5D"]]},{"trick":3,"winner":"Ben","cards":[["Cat","7S"],["Ben","KS"]]}],"current_trick":[],"first_play":null,"hands":{"Ben":["QC","5D","KS"],"Cat":["AC","7D","7S"]},"replay":null,"replay_asked_by":null,"pool_at_play_units":12,"penalties":[{"deal_no":3,"player":"Ben","offence":"lead-rule","law":"Cassell: the elder hand plays his highest trump, or his highest card","amount_units":3,"destination":"next_pool","kind":"loo","forfeits_winnings":false,"throw_up":false,"redeal":false,"replay":"none","detected":true,"evidence":{"player":"Ben","rule":"lead-highest-card","trick":1,"card":"QC","held":["QC","5D","KS"],"detail":"held QC, 5D, KS and led QC"},"postings":[{"from":"Ben","to":"next_pool","amount_units":3,"reason":"penalty","offence":"lead-rule","deal_no":3,"loo":true}],"stage":"in-play","leaves_play":false,"hand":0}],"abandoned":{},"breaches":[{"deal_no":3,"player":"Ben","rule":"lead-highest-card","trick":1,"card":"QC","held":["QC","5D","KS"],"detail":"held QC, 5D, KS and led QC","replay":false}],"postings":[{"from":"Cat","to":"pool","amount_units":3,"reason":"deal","deal_no":3},{"from":"next_pool","to":"pool","amount_units":9,"reason":"brought_forward","deal_no":3},{"from":"Ben","to":"next_pool","amount_units":3,"reason":"penalty","offence":"lead-rule","deal_no":3,"loo":true},{"from":"pool","to":"Ben","amount_units":4,"reason":"trick","deal_no":3},{"from":"pool","to":"next_pool","amount_units":8,"reason":"carried_forward","deal_no":3}],"settlement":{"deal_no":3,"outcome":"divided","pool_units":12,"loo_units":3,"shares":[{"trick":1,"winner":"Cat","amount_units":4,"paid_to":null,"stays_in_pool":"miss-for-pool"},{"trick":2,"winner":"Cat","amount_units":4,"paid_to":null,"stays_in_pool":"miss-for-pool"},{"trick":3,"winner":"Ben","amount_units":4,"paid_to":"Ben","stays_in_pool":null}],"looed":[],"carried_units":8,"next_fresh":false,"next_forced":null},"pool_units":0,"contributions":[{"from":"Cat","to":"pool","amount_units":3,"reason":"deal","deal_no":3},{"from":"next_pool","to":"pool","amount_units":9,"reason":"brought_forward","deal_no":3}],"corrections":[]}
f65c7addebe04aecbb4d4228f4ecf2b6	4	74	{"deal_no":4,"dealer":"Dan","kind":"hand","trump_card":"3C","dealt":["Eve","Fay","Gus","Ada","Ben","Cat","Dan"],"fresh":false,"forced":null,"miss":true,"face_up":{},"phase":"settled","redeals":0,"declarations":{"Eve":"play","Fay":"play","Gus":"play","Ada":"throw_up","Ben":"throw_up","Cat":"throw_up","Dan":"throw_up"},"standing":[{"player":"Eve","hand":"own"},{"player":"Fay","hand":"own"},{"player":"Gus","hand":"own"}],"entry":"quick","tricks":[{"trick":1,"winner":"Eve","cards":[]},{"trick":2,"winner":"Fay","cards":[]},{"trick":3,"winner":"Gus","cards":[]}],"current_trick":[],"first_play":null,"hands":{},"replay":null,"replay_asked_by":null,"pool_at_play_units":14,"penalties":[],"abandoned":{},"breaches":[],"postings":[{"from":"Dan","to":"pool","amount_units":3,"reason":"deal","deal_no":4},{"from":"next_pool","to":"pool","amount_units":11,"reason":"brought_forward","deal_no":4},{"from":"pool","to":"Eve","amount_units":5,"reason":"trick","deal_no":4},{"from":"pool","to":"Fay","amount_units":5,"reason":"trick","deal_no":4},{"from":"pool","to":"Gus","amount_units":4,"reason":"trick","deal_no":4}],"settlement":{"deal_no":4,"outcome":"divided","pool_units":14,"loo_units":3,"shares":[{"trick":1,"winner":"Eve","amount_units":5,"paid_to":"Eve","stays_in_pool":null},{"trick":2,"winner":"Fay","amount_units":5,"paid_to":"Fay","stays_in_pool":null},{"trick":3,"winner":"Gus","amount_units":4,"paid_to":"Gus","stays_in_pool":null}],"looed":[],"carried_units":0,"next_fresh":true,"next_forced":null},"pool_units":0,"contributions":[{"from":"Dan","to":"pool","amount_units":3,"reason":"deal","deal_no":4},{"from":"next_pool","to":"pool","amount_units":11,"reason":"brought_forward","deal_no":4}],"corrections":[]}
f65c7addebe04aecbb4d4228f4ecf2b6	5	111	{"deal_no":5,"dealer":"Eve","kind":"hand","trump_card":"AD","dealt":["Fay","Gus","Ada","Ben","Cat","Dan","Eve"],"fresh":true,"forced":null,"miss":true,"face_up":{},"phase":"settled","redeals":1,"declarations":{"Fay":"play","Gus":"throw_up","Ada":"play","Ben":"take_miss","Cat":"play","Dan":"throw_up","Eve":"throw_up"},"standing":[{"player":"Fay","hand":"own"},{"player":"Ada","hand":"own"},{"player":"Ben","hand":"miss"},{"player":"Cat","hand":"own"}],"entry":"cards","tricks":[{"trick":1,"winner":"Fay","cards":[["Fay","6D"],["Ada","JH"],["Ben","4D"],["Cat","KC"]]},{"trick":2,"winner":"Cat","cards":[["Fay","6S"],["Ada","4C"],["Ben","5S"],["Cat","QD"]]},{"trick":3,"winner":"Fay","cards":[["Cat","6C"],["Fay","7D"],["Ada","4H"],["Ben","QH"]]}],"current_trick":[],"first_play":null,"hands":{"Fay":["6D","6S","7D"],"Ada":["JH","4C","4H"],"Ben":["4D","5S","QH"],"Cat":["KC","QD","6C"]},"replay":null,"replay_asked_by":null,"pool_at_play_units":21,"penalties":[{"deal_no":5,"player":"Eve","offence":"misdeal","law":"Cassell, Mis-deal; Looed: breaking any law of the game (misdeal)","amount_units":null,"destination":"next_pool-at-settlement","kind":"loo","forfeits_winnings":false,"throw_up":false,"redeal":true,"replay":"none","detected":false,"evidence":{},"postings":[],"stage":"pre-play","leaves_play":false,"hand":0},{"deal_no":5,"player":"Cat","offence":"revoke","law":"Cassell, Revoke: when a person who can follow suit does not","amount_units":3,"destination":"next_pool","kind":"loo","forfeits_winnings":false,"throw_up":false,"redeal":false,"replay":"none","detected":true,"evidence":{"player":"Cat","rule":"revoke","trick":1,"card":"KC","held":["KC","QD"],"detail":"held QD of the suit led and played KC"},"postings":[{"from":"Cat","to":"next_pool","amount_units":3,"reason":"penalty","offence":"revoke","deal_no":5,"loo":true}],"stage":"in-play","leaves_play":false,"hand":1},{"deal_no":5,"player":"Fay","offence":"lead-rule","law":"Cassell: the elder hand plays his highest trump, or his highest card","amount_units":3,"destination":"next_pool","kind":"loo","forfeits_winnings":false,"throw_up":false,"redeal":false,"replay":"none","detected":true,"evidence":{"player":"Fay","rule":"lead-highest-trump","trick":1,"card":"6D","held":["7D","6D","6S"],"detail":"held trumps 7D, 6D and led 6D"},"postings":[{"from":"Fay","to":"next_pool","amount_units":3,"reason":"penalty","offence":"lead-rule","deal_no":5,"loo":true}],"stage":"in-play","leaves_play":false,"hand":1}],"abandoned":{},"breaches":[{"deal_no":5,"player":"Cat","rule":"revoke","trick":1,"card":"KC","held":["KC","QD"],"detail":"held QD of the suit led and played KC","replay":false},{"deal_no":5,"player":"Fay","rule":"lead-highest-trump","trick":1,"card":"6D","held":["7D","6D","6S"],"detail":"held trumps 7D, 6D and led 6D","replay":false},{"deal_no":5,"player":"Fay","rule":"trump-after-trick","trick":2,"card":"6S","held":["7D","6S"],"detail":"won the first trick holding 7D and led 6S","replay":false}],"postings":[{"from":"Eve","to":"pool","amount_units":3,"reason":"deal","deal_no":5},{"from":"Ada","to":"pool","amount_units":3,"reason":"ante","deal_no":5},{"from":"Ben","to":"pool","amount_units":3,"reason":"ante","deal_no":5},{"from":"Cat","to":"pool","amount_units":3,"reason":"ante","deal_no":5},{"from":"Dan","to":"pool","amount_units":3,"reason":"ante","deal_no":5},{"from":"Fay","to":"pool","amount_units":3,"reason":"ante","deal_no":5},{"from":"Gus","to":"pool","amount_units":3,"reason":"ante","deal_no":5},{"from":"Cat","to":"next_pool","amount_units":3,"reason":"penalty","offence":"revoke","deal_no":5,"loo":true},{"from":"Fay","to":"next_pool","amount_units":3,"reason":"penalty","offence":"lead-rule","deal_no":5,"loo":true},{"from":"pool","to":"Fay","amount_units":7,"reason":"trick","deal_no":5},{"from":"pool","to":"Cat","amount_units":7,"reason":"trick","deal_no":5},{"from":"pool","to":"Fay","amount_units":7,"reason":"trick","deal_no":5},{"from":"Ada","to":"next_pool","amount_units":3,"reason":"loo","deal_no":5,"loo":true},{"from":"Ben","to":"next_pool","amount_units":3,"reason":"loo","deal_no":5,"loo":true},{"from":"Eve","to":"next_pool","amount_units":3,"reason":"penalty","offence":"misdeal","deal_no":5,"loo":true}],"settlement":{"deal_no":5,"outcome":"divided","pool_units":21,"loo_units":3,"shares":[{"trick":1,"winner":"Fay","amount_units":7,"paid_to":"Fay","stays_in_pool":null},{"trick":2,"winner":"Cat","amount_units":7,"paid_to":"Cat","stays_in_pool":null},{"trick":3,"winner":"Fay","amount_units":7,"paid_to":"Fay","stays_in_pool":null}],"looed":["Ada","Ben"],"carried_units":0,"next_fresh":false,"next_forced":null},"pool_units":0,"contributions":[{"from":"Eve","to":"pool","amount_units":3,"reason":"deal","deal_no":5},{"from":"Ada","to":"pool","amount_units":3,"reason":"ante","deal_no":5},{"from":"Ben","to":"pool","amount_units":3,"reason":"ante","deal_no":5},{"from":"Cat","to":"pool","amount_units":3,"reason":"ante","deal_no":5},{"from":"Dan","to":"pool","amount_units":3,"reason":"ante","deal_no":5},{"from":"Fay","to":"pool","amount_units":3,"reason":"ante","deal_no":5},{"from":"Gus","to":"pool","amount_units":3,"reason":"ante","deal_no":5}],"corrections":[]}
f65c7addebe04aecbb4d4228f4ecf2b6	6	124	{"deal_no":6,"dealer":"Fay","kind":"hand","trump_card":"5H","dealt":["Gus","Ada","Ben","Cat","Dan","Eve","Fay"],"fresh":false,"forced":null,"miss":true,"face_up":{},"phase":"settled","redeals":0,"declarations":{"Gus":"take_miss","Ada":"throw_up","Ben":"play","Cat":"play","Dan":"throw_up","Eve":"play","Fay":"throw_up"},"standing":[{"player":"Gus","hand":"miss"},{"player":"Ben","hand":"own"},{"player":"Cat","hand":"own"},{"player":"Eve","hand":"own"}],"entry":"quick","tricks":[{"trick":1,"winner":"Gus","cards":[]},{"trick":2,"winner":"Gus","cards":[]},{"trick":3,"winner":"Eve","cards":[]}],"current_trick":[],"first_play":null,"hands":{},"replay":null,"replay_asked_by":null,"pool_at_play_units":18,"penalties":[],"abandoned":{},"breaches":[],"postings":[{"from":"Fay","to":"pool","amount_units":3,"reason":"deal","deal_no":6},{"from":"next_pool","to":"pool","amount_units":15,"reason":"brought_forward","deal_no":6},{"from":"pool","to":"Gus","amount_units":6,"reason":"trick","deal_no":6},{"from":"pool","to":"Gus","amount_units":6,"reason":"trick","deal_no":6},{"from":"pool","to":"Eve","amount_units":6,"reason":"trick","deal_no":6},{"from":"Ben","to":"next_pool","amount_units":3,"reason":"loo","deal_no":6,"loo":true},{"from":"Cat","to":"next_pool","amount_units":3,"reason":"loo","deal_no":6,"loo":true}],"settlement":{"deal_no":6,"outcome":"divided","pool_units":18,"loo_units":3,"shares":[{"trick":1,"winner":"Gus","amount_units":6,"paid_to":"Gus","stays_in_pool":null},{"trick":2,"winner":"Gus","amount_units":6,"paid_to":"Gus","stays_in_pool":null},{"trick":3,"winner":"Eve","amount_units":6,"paid_to":"Eve","stays_in_pool":null}],"looed":["Ben","Cat"],"carried_units":0,"next_fresh":false,"next_forced":null},"pool_units":0,"contributions":[{"from":"Fay","to":"pool","amount_units":3,"reason":"deal","deal_no":6},{"from":"next_pool","to":"pool","amount_units":15,"reason":"brought_forward","deal_no":6}],"corrections":[]}
\.


--
-- Data for Name: events; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.events ("position", stream_id, version, type, schema_version, payload, recorded_at, actor, idempotency_key, member_id, token_id, hash) FROM stdin;
1	38bbfac0225b49628efaae2fbd9ba258	1	SessionOpened	1	{"name": "generated", "players": ["Ada", "Ben", "Cat"], "first_dealer": "Ada", "rules": {"preset": "baxter-wray", "stake": 3, "deal_price": 3, "fresh_deal_price": 3, "ante": 0, "loo": "limited", "loo_amount": 6, "loo_limit": null, "single_loo": 3, "loo_capped_at_pool": false, "fresh_pool": "turn-up", "lead_rule": "highest-of-two", "trump_after_trick": "higher-of-two", "ace_turned_up_king_leads": true, "miss_holder_leads": false, "club_law": false, "force_after_single": false, "dealer_stands_out_above": null, "last_before_dealer_bound": false, "deal_out_of_turn": "refuse", "penalties": "baxter-wray", "variant": "three-card", "pack": 52}, "unit": "counter", "money_per_unit_minor": null, "currency": null, "members": {"Ada": "de4958b7d3674722b75f74d0cec7e903", "Ben": "539abcfd2ca041c7aea889bb94081643", "Cat": "b1a6f86d925840dba673e30c40d0077e"}}	2026-11-25 23:00:09.806328+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	a0446e031696b34c612e345248a64a74bd49ac4eb0556007559cde1b42b7c2be
2	38bbfac0225b49628efaae2fbd9ba258	2	DealStarted	1	{"deal_no":1,"dealer":"Ada","kind":"single","trump_card":"AD","dealt":["Ben","Cat","Ada"],"fresh":true,"forced":null,"miss":false,"redeal":false,"face_up":{"Ben":"3H","Cat":"QH","Ada":"AH"},"postings":[{"from":"Ada","to":"pool","amount_units":3,"reason":"deal","deal_no":1}]}	2026-11-25 23:00:09.913294+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	4c0808a3fe674ade04238eb5df9ac25802d7fc06b576f2c99774e3e83bea8de1
3	38bbfac0225b49628efaae2fbd9ba258	3	DealSettled	1	{"deal_no":1,"outcome":"single-not-won","pool_units":3,"loo_units":3,"shares":[],"looed":["Ben","Cat","Ada"],"carried_units":3,"next_fresh":false,"next_forced":null,"postings":[{"from":"Ben","to":"next_pool","amount_units":3,"reason":"single_loo","deal_no":1,"loo":true},{"from":"Cat","to":"next_pool","amount_units":3,"reason":"single_loo","deal_no":1,"loo":true},{"from":"Ada","to":"next_pool","amount_units":3,"reason":"single_loo","deal_no":1,"loo":true},{"from":"pool","to":"next_pool","amount_units":3,"reason":"carried_forward","deal_no":1}]}	2026-11-25 23:00:09.913294+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	b3f74b78a3209088d4cb6e064a74559a615a49db5c539c45d53824a5a939b902
4	38bbfac0225b49628efaae2fbd9ba258	4	DealStarted	1	{"deal_no":2,"dealer":"Ben","kind":"hand","trump_card":"9D","dealt":["Cat","Ada","Ben"],"fresh":false,"forced":null,"miss":true,"redeal":false,"face_up":{},"postings":[{"from":"Ben","to":"pool","amount_units":3,"reason":"deal","deal_no":2},{"from":"next_pool","to":"pool","amount_units":12,"reason":"brought_forward","deal_no":2}]}	2026-11-25 23:00:09.958515+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	27b64309ad92695221002dfb411bd09969b017daeed294e52befdd3751179f4c
5	38bbfac0225b49628efaae2fbd9ba258	5	DeclarationMade	1	{"deal_no":2,"player":"Cat","declaration":"throw_up"}	2026-11-25 23:00:09.960955+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	1f6d38f1bbeba70479be66baec0df6fb4c4b4607e5fdd194ba82b52b22d406ad
6	38bbfac0225b49628efaae2fbd9ba258	6	DeclarationMade	1	{"deal_no":2,"player":"Ada","declaration":"take_miss"}	2026-11-25 23:00:09.965474+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	56ea0201eabb9a2d90b4590672b93d18aba217070bb47aacd058492bafdfc654
7	38bbfac0225b49628efaae2fbd9ba258	7	DeclarationMade	1	{"deal_no":2,"player":"Ben","declaration":"play"}	2026-11-25 23:00:09.969216+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	0e101ec6d98d71e6c2fe2f8b3a576b92ba2f552ba705fb380514fa6f62900c75
8	38bbfac0225b49628efaae2fbd9ba258	8	CardPlayed	1	{"deal_no":2,"player":"Ada","card":"4S","trick":1,"replay":false}	2026-11-25 23:00:09.999289+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	7b7ce584f9809333554582060fc8191aa47752aec6c6ee4bdcc20db844a3a804
9	38bbfac0225b49628efaae2fbd9ba258	9	CardPlayed	1	{"deal_no":2,"player":"Ben","card":"AS","trick":1,"replay":false}	2026-11-25 23:00:10.00942+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	ba6e0c20ce8bc1aa2530d4860a5eba226e08e5b4af49ef77dcdee128d281200a
10	38bbfac0225b49628efaae2fbd9ba258	10	TrickWon	1	{"deal_no":2,"trick":1,"winner":"Ben","cards":[["Ada","4S"],["Ben","AS"]],"replay":false}	2026-11-25 23:00:10.00942+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	27380c5f5e9b45b83458b82a296a87a41df49e2b1d47b589e482f2dccc1f4a4f
11	38bbfac0225b49628efaae2fbd9ba258	11	CardPlayed	1	{"deal_no":2,"player":"Ben","card":"KD","trick":2,"replay":false}	2026-11-25 23:00:10.013946+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	2bf227068537db0386d61ee8f0374763f6ef80c66d7187d9b72fd03aaa713341
12	38bbfac0225b49628efaae2fbd9ba258	12	CardPlayed	1	{"deal_no":2,"player":"Ada","card":"KC","trick":2,"replay":false}	2026-11-25 23:00:10.033202+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	f06e39ee4c1bf9e8dc1d3e7349a0a9545f52b09fe7e2321e81cf9b453ac648ef
13	38bbfac0225b49628efaae2fbd9ba258	13	TrickWon	1	{"deal_no":2,"trick":2,"winner":"Ben","cards":[["Ben","KD"],["Ada","KC"]],"replay":false}	2026-11-25 23:00:10.033202+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	d207ba27822357e234d6a6c7982f0cacdabe0b48103b3c2d9ab3b975eea07007
14	38bbfac0225b49628efaae2fbd9ba258	14	CardPlayed	1	{"deal_no":2,"player":"Ben","card":"5H","trick":3,"replay":false}	2026-11-25 23:00:10.048699+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	0346e897e0eef89e75bb8101064c87e53fc64d3519c7e0e4dc3ebf27fd434a74
15	38bbfac0225b49628efaae2fbd9ba258	15	CardPlayed	1	{"deal_no":2,"player":"Ada","card":"QS","trick":3,"replay":false}	2026-11-25 23:00:10.07757+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	8ad746511b16c86662c8e434de9a235a5feecc220a11bb5f683841228169fbea
16	38bbfac0225b49628efaae2fbd9ba258	16	TrickWon	1	{"deal_no":2,"trick":3,"winner":"Ben","cards":[["Ben","5H"],["Ada","QS"]],"replay":false}	2026-11-25 23:00:10.07757+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	d910b78b15ff5cb57c75096287e559e4ef893c988788277fc5b6516d26d17856
17	38bbfac0225b49628efaae2fbd9ba258	17	DealSettled	1	{"deal_no":2,"outcome":"divided","pool_units":15,"loo_units":6,"shares":[{"trick":1,"winner":"Ben","amount_units":5,"paid_to":"Ben","stays_in_pool":null},{"trick":2,"winner":"Ben","amount_units":5,"paid_to":"Ben","stays_in_pool":null},{"trick":3,"winner":"Ben","amount_units":5,"paid_to":"Ben","stays_in_pool":null}],"looed":["Ada"],"carried_units":0,"next_fresh":false,"next_forced":null,"postings":[{"from":"pool","to":"Ben","amount_units":5,"reason":"trick","deal_no":2},{"from":"pool","to":"Ben","amount_units":5,"reason":"trick","deal_no":2},{"from":"pool","to":"Ben","amount_units":5,"reason":"trick","deal_no":2},{"from":"Ada","to":"next_pool","amount_units":6,"reason":"loo","deal_no":2,"loo":true}]}	2026-11-25 23:00:10.07757+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	c38fbbd9732e0014dc7522fa18eeab308e07af7b06222774f298d96a98fccfcb
18	38bbfac0225b49628efaae2fbd9ba258	18	DealStarted	1	{"deal_no":3,"dealer":"Cat","kind":"hand","trump_card":"4H","dealt":["Ada","Ben","Cat"],"fresh":false,"forced":null,"miss":true,"redeal":false,"face_up":{},"postings":[{"from":"Cat","to":"pool","amount_units":3,"reason":"deal","deal_no":3},{"from":"next_pool","to":"pool","amount_units":6,"reason":"brought_forward","deal_no":3}]}	2026-11-25 23:00:10.102388+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	a23952636b3c637dc20720696c3fd8a873573afd084abe6d14eaca122a747628
19	38bbfac0225b49628efaae2fbd9ba258	19	DeclarationMade	1	{"deal_no":3,"player":"Ada","declaration":"play"}	2026-11-25 23:00:10.121011+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	dec3cc45d14853bcec0e9ed461cd611bbe31792025da6f99c7e3e2b259ee89bf
20	38bbfac0225b49628efaae2fbd9ba258	20	DeclarationMade	1	{"deal_no":3,"player":"Ben","declaration":"throw_up"}	2026-11-25 23:00:10.125508+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	07dabe5b535215634c673d5135c21eec16db354baaba25294e2789e0fd11a88f
21	38bbfac0225b49628efaae2fbd9ba258	21	DeclarationMade	1	{"deal_no":3,"player":"Cat","declaration":"play_miss_for_pool"}	2026-11-25 23:00:10.1437+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	ecf2d4cfc5420adcfb5271a8f6f37ed28b1bdfce4340f53454e76a9be8559b8a
22	38bbfac0225b49628efaae2fbd9ba258	22	CardPlayed	1	{"deal_no":3,"player":"Ada","card":"QH","trick":1,"replay":false}	2026-11-25 23:00:10.15593+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	466f52c9400ce43d353bd4a9d1ba0462377fabb40f00e84bcffe4d539ba5fbf3
23	38bbfac0225b49628efaae2fbd9ba258	23	CardPlayed	1	{"deal_no":3,"player":"Cat","card":"6S","trick":1,"replay":false}	2026-11-25 23:00:10.176293+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	fddfb5cb37a7438fbbcf970eec2fdec2c9ce68d3638708e0fe2a7d99df64053d
24	38bbfac0225b49628efaae2fbd9ba258	24	TrickWon	1	{"deal_no":3,"trick":1,"winner":"Ada","cards":[["Ada","QH"],["Cat","6S"]],"replay":false}	2026-11-25 23:00:10.176293+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	552c9d8bec2b43b5d78f69b506879e3c05e889c9e43248a50e58381aea2c710f
25	38bbfac0225b49628efaae2fbd9ba258	25	CardPlayed	1	{"deal_no":3,"player":"Ada","card":"10C","trick":2,"replay":false}	2026-11-25 23:00:10.179879+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	2f350388c89f51cb22a600b44cebdd4bce7b0fb8972dad747647baab430c131c
26	38bbfac0225b49628efaae2fbd9ba258	26	CardPlayed	1	{"deal_no":3,"player":"Cat","card":"JC","trick":2,"replay":false}	2026-11-25 23:00:10.185187+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	4f5df72a8306ce91336e405b079e73112d436ce2a644edf4dd82c11bf8d96790
27	38bbfac0225b49628efaae2fbd9ba258	27	TrickWon	1	{"deal_no":3,"trick":2,"winner":"Cat","cards":[["Ada","10C"],["Cat","JC"]],"replay":false}	2026-11-25 23:00:10.185187+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	e9c842a38ad39e4aa0a54b1febf6bea5c7c35253f3b5e746930ceb352a9bba40
28	38bbfac0225b49628efaae2fbd9ba258	28	CardPlayed	1	{"deal_no":3,"player":"Cat","card":"KC","trick":3,"replay":false}	2026-11-25 23:00:10.20568+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	48745a3a700a093f72aa6d923924967f109399a9eca3df179d2587de56ce64e5
29	38bbfac0225b49628efaae2fbd9ba258	29	CardPlayed	1	{"deal_no":3,"player":"Ada","card":"5D","trick":3,"replay":false}	2026-11-25 23:00:10.212861+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	05c1b6a9dad552271a545e87bd98f046bf0fd3d685d84a406deb40c5d5476b2a
30	38bbfac0225b49628efaae2fbd9ba258	30	TrickWon	1	{"deal_no":3,"trick":3,"winner":"Cat","cards":[["Cat","KC"],["Ada","5D"]],"replay":false}	2026-11-25 23:00:10.212861+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	0acfdbb73b2f4db0ace394249574b7afd9a18aa1ebcff05fa9dfeee1fb3612e2
31	38bbfac0225b49628efaae2fbd9ba258	31	DealSettled	1	{"deal_no":3,"outcome":"divided","pool_units":9,"loo_units":6,"shares":[{"trick":1,"winner":"Ada","amount_units":3,"paid_to":"Ada","stays_in_pool":null},{"trick":2,"winner":"Cat","amount_units":3,"paid_to":null,"stays_in_pool":"miss-for-pool"},{"trick":3,"winner":"Cat","amount_units":3,"paid_to":null,"stays_in_pool":"miss-for-pool"}],"looed":[],"carried_units":6,"next_fresh":true,"next_forced":null,"postings":[{"from":"pool","to":"Ada","amount_units":3,"reason":"trick","deal_no":3},{"from":"pool","to":"next_pool","amount_units":6,"reason":"carried_forward","deal_no":3}]}	2026-11-25 23:00:10.212861+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	3b23ed0b1a128b0f00f9c95d50725b8a4e600d7798a92a5b118979cf263b0e47
32	38bbfac0225b49628efaae2fbd9ba258	32	DealStarted	1	{"deal_no":4,"dealer":"Ada","kind":"single","trump_card":"4D","dealt":["Ben","Cat","Ada"],"fresh":true,"forced":null,"miss":false,"redeal":false,"face_up":{"Ben":"4H","Cat":"QH","Ada":"6D"},"postings":[{"from":"Ada","to":"pool","amount_units":3,"reason":"deal","deal_no":4},{"from":"next_pool","to":"pool","amount_units":6,"reason":"brought_forward","deal_no":4}]}	2026-11-25 23:00:10.262673+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	f2f02bec20976ee493b62df43aac882b6b80e090a2df65295f9ca6d7eddbf214
33	38bbfac0225b49628efaae2fbd9ba258	33	DealSettled	1	{"deal_no":4,"outcome":"single-won","pool_units":9,"loo_units":3,"shares":[],"looed":["Ben","Cat"],"carried_units":0,"next_fresh":false,"next_forced":null,"postings":[{"from":"pool","to":"Ada","amount_units":9,"reason":"pool_taken","deal_no":4},{"from":"Ben","to":"next_pool","amount_units":3,"reason":"single_loo","deal_no":4,"loo":true},{"from":"Cat","to":"next_pool","amount_units":3,"reason":"single_loo","deal_no":4,"loo":true}]}	2026-11-25 23:00:10.262673+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	311e10f0b1347cf40d5875336b37c0eb78eaea3cb5bda8e65aa166f22632648e
34	38bbfac0225b49628efaae2fbd9ba258	34	DealStarted	1	{"deal_no":5,"dealer":"Ben","kind":"hand","trump_card":"KH","dealt":["Cat","Ada","Ben"],"fresh":false,"forced":null,"miss":true,"redeal":false,"face_up":{},"postings":[{"from":"Ben","to":"pool","amount_units":3,"reason":"deal","deal_no":5},{"from":"next_pool","to":"pool","amount_units":6,"reason":"brought_forward","deal_no":5}]}	2026-11-25 23:00:10.306619+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	5f5dffd727ead50efd14ac66cbbf43f98a8b262b02edd2da4449502e86323f74
35	38bbfac0225b49628efaae2fbd9ba258	35	DeclarationMade	1	{"deal_no":5,"player":"Cat","declaration":"play"}	2026-11-25 23:00:10.309315+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	eb2f660a1de031c559ff920598440e5c70f9d38a2360578d0117280a028bff97
36	38bbfac0225b49628efaae2fbd9ba258	36	DeclarationMade	1	{"deal_no":5,"player":"Ada","declaration":"take_miss"}	2026-11-25 23:00:10.330345+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	04bf6530e29d37852e098fd87eb9e7a4e086738a4bad33e9bbcbb69e7874a457
37	38bbfac0225b49628efaae2fbd9ba258	37	DeclarationMade	1	{"deal_no":5,"player":"Ben","declaration":"throw_up"}	2026-11-25 23:00:10.3337+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	ffc05e085cb189d740cfafa986432e7d044b8fd05edb46aaaba3e45071df0d76
38	38bbfac0225b49628efaae2fbd9ba258	38	CardPlayed	1	{"deal_no":5,"player":"Cat","card":"9S","trick":1,"replay":false}	2026-11-25 23:00:10.385433+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	06b1be2d233df19d3cd597bd4dec1bfb1f516d6736926e661f80e2160728c706
39	38bbfac0225b49628efaae2fbd9ba258	39	CardPlayed	1	{"deal_no":5,"player":"Ada","card":"2S","trick":1,"replay":false}	2026-11-25 23:00:10.395748+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	d79274f0988b4961d99949a5fefe5c02841eb5819b71e0656a26feec33ccb424
40	38bbfac0225b49628efaae2fbd9ba258	40	TrickWon	1	{"deal_no":5,"trick":1,"winner":"Cat","cards":[["Cat","9S"],["Ada","2S"]],"replay":false}	2026-11-25 23:00:10.395748+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	e41bab63b8d96091fda11bf88d2b397cec2f46bf56bd19e7f20fe6c83c038290
41	38bbfac0225b49628efaae2fbd9ba258	41	CardPlayed	1	{"deal_no":5,"player":"Cat","card":"6H","trick":2,"replay":false}	2026-11-25 23:00:10.407246+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	87c1cf38b0ffce5f343c1b93be6a162ad1f91370cc584aad3a52fdf92dd34e0f
42	38bbfac0225b49628efaae2fbd9ba258	42	CardPlayed	1	{"deal_no":5,"player":"Ada","card":"AH","trick":2,"replay":false}	2026-11-25 23:00:10.411059+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	9127b83b06f8fec78edf8f1698c2ebf1004e61ec0a4cec720059af4b57e042c3
43	38bbfac0225b49628efaae2fbd9ba258	43	TrickWon	1	{"deal_no":5,"trick":2,"winner":"Ada","cards":[["Cat","6H"],["Ada","AH"]],"replay":false}	2026-11-25 23:00:10.411059+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	f07aa63edc4592d8c64ff53502fd66eb12e9f1ccafa0647426a82e309282f522
44	38bbfac0225b49628efaae2fbd9ba258	44	CardPlayed	1	{"deal_no":5,"player":"Ada","card":"KS","trick":3,"replay":false}	2026-11-25 23:00:10.413677+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	73858c651cfc077b99488b307eddd585b3eaffaadbb6150e8e5140e68e7ccfc2
45	38bbfac0225b49628efaae2fbd9ba258	45	BreachDetected	1	{"deal_no":5,"player":"Ada","rule":"not-heading","trick":1,"card":"2S","held":["AH","KS","2S"],"detail":"could head 9S with KS, played 2S","replay":false}	2026-11-25 23:00:10.413677+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	79024b70e01ba582ce9a8f28205e825d74f25b15b8f4ab3b5941969374d10fa4
46	38bbfac0225b49628efaae2fbd9ba258	46	PenaltyImposed	1	{"deal_no":5,"player":"Ada","offence":"not-heading","law":"Baxter-Wray p. 21: compulsory to head the trick if able","amount_units":6,"destination":"next_pool","kind":"loo","forfeits_winnings":true,"throw_up":false,"redeal":false,"replay":"required","detected":true,"evidence":{"player":"Ada","rule":"not-heading","trick":1,"card":"2S","held":["AH","KS","2S"],"detail":"could head 9S with KS, played 2S"},"postings":[{"from":"Ada","to":"next_pool","amount_units":6,"reason":"penalty","offence":"not-heading","deal_no":5,"loo":true}],"stage":"in-play","leaves_play":false}	2026-11-25 23:00:10.413677+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	387589cde8855b1c318e998ca26e70cde243870b1afd5db92b3cf120d0d4df30
47	38bbfac0225b49628efaae2fbd9ba258	47	CardPlayed	1	{"deal_no":5,"player":"Cat","card":"5D","trick":3,"replay":false}	2026-11-25 23:00:10.42445+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	beac44427155072af2e625bd2a801ae4dc5ba5d3ab21367e110b0f05c94cbed6
48	38bbfac0225b49628efaae2fbd9ba258	48	TrickWon	1	{"deal_no":5,"trick":3,"winner":"Ada","cards":[["Ada","KS"],["Cat","5D"]],"replay":false}	2026-11-25 23:00:10.42445+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	18e368e6a70b8356c21c61ecf5674f00a0c41ed43a1128a9aad1765a3e44ba01
49	38bbfac0225b49628efaae2fbd9ba258	49	ReplayStarted	1	{"deal_no":5,"asked_by":null}	2026-11-25 23:00:10.42445+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	04290a45d3e50984cea92e31cf3106138c513ab108cbe06230e615b84ed7d06b
50	38bbfac0225b49628efaae2fbd9ba258	50	CardPlayed	1	{"deal_no":5,"player":"Cat","card":"5D","trick":1,"replay":true}	2026-11-25 23:00:10.426368+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	a021adb2a18dca89fe756f9de6069451e2a0cf4fbb6ed52112001c4411e13b02
51	38bbfac0225b49628efaae2fbd9ba258	51	CardPlayed	1	{"deal_no":5,"player":"Ada","card":"AH","trick":1,"replay":true}	2026-11-25 23:00:10.435045+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	e6805959bc713cda7ff00183608ef0f13ca33e1096993bbe729d5d6975ecf6ef
52	38bbfac0225b49628efaae2fbd9ba258	52	TrickWon	1	{"deal_no":5,"trick":1,"winner":"Ada","cards":[["Cat","5D"],["Ada","AH"]],"replay":true}	2026-11-25 23:00:10.435045+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	543416805e34401227cffcbeac1875fd9a74300d7863a69a28ecc06ef9ef6bd4
53	38bbfac0225b49628efaae2fbd9ba258	53	CardPlayed	1	{"deal_no":5,"player":"Ada","card":"2S","trick":2,"replay":true}	2026-11-25 23:00:10.439099+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	fb2a28411f795afd19c413ffbe633fc6a4de3a255984fbae33f14620c9334916
54	38bbfac0225b49628efaae2fbd9ba258	54	CardPlayed	1	{"deal_no":5,"player":"Cat","card":"9S","trick":2,"replay":true}	2026-11-25 23:00:10.445794+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	bba84383235e8fe8c966565c2aff34bd3d8d06cca287dd12a9c60bb5dfb152b7
55	38bbfac0225b49628efaae2fbd9ba258	55	TrickWon	1	{"deal_no":5,"trick":2,"winner":"Cat","cards":[["Ada","2S"],["Cat","9S"]],"replay":true}	2026-11-25 23:00:10.445794+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	bd4ebf01a1ace19868f2ee2104fe5ad0bdc5e1ccb9f152fba91b61c51e591ecc
56	38bbfac0225b49628efaae2fbd9ba258	56	CardPlayed	1	{"deal_no":5,"player":"Cat","card":"6H","trick":3,"replay":true}	2026-11-25 23:00:10.448588+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	2de8c9474d0fea474bf6467fcc18142fc1daf5c8237e99cd1cd31d592150c3d2
57	38bbfac0225b49628efaae2fbd9ba258	57	CardPlayed	1	{"deal_no":5,"player":"Ada","card":"KS","trick":3,"replay":true}	2026-11-25 23:00:10.454819+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	8b34924ac5d3bcc30615cc72fe70b2b199427913ee993f23ace57311794e49d3
58	38bbfac0225b49628efaae2fbd9ba258	58	TrickWon	1	{"deal_no":5,"trick":3,"winner":"Cat","cards":[["Cat","6H"],["Ada","KS"]],"replay":true}	2026-11-25 23:00:10.454819+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	711ecc31f09fea6230e3c480ab5fc2fc514064b9e3366ec42f743d0ba4085c81
59	38bbfac0225b49628efaae2fbd9ba258	59	DealSettled	1	{"deal_no":5,"outcome":"divided","pool_units":9,"loo_units":6,"shares":[{"trick":1,"winner":"Ada","amount_units":3,"paid_to":null,"stays_in_pool":"forfeited"},{"trick":2,"winner":"Cat","amount_units":3,"paid_to":"Cat","stays_in_pool":null},{"trick":3,"winner":"Cat","amount_units":3,"paid_to":"Cat","stays_in_pool":null}],"looed":[],"carried_units":3,"next_fresh":false,"next_forced":null,"postings":[{"from":"pool","to":"Cat","amount_units":3,"reason":"trick","deal_no":5},{"from":"pool","to":"Cat","amount_units":3,"reason":"trick","deal_no":5},{"from":"pool","to":"next_pool","amount_units":3,"reason":"carried_forward","deal_no":5}]}	2026-11-25 23:00:10.454819+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	32bffe5ba95e11748a8b9d00031e48f34c78577fde2acca8c88709f2cc6f7cee
60	38bbfac0225b49628efaae2fbd9ba258	60	DealStarted	1	{"deal_no":6,"dealer":"Cat","kind":"hand","trump_card":"KC","dealt":["Ada","Ben","Cat"],"fresh":false,"forced":null,"miss":true,"redeal":false,"face_up":{},"postings":[{"from":"Cat","to":"pool","amount_units":3,"reason":"deal","deal_no":6},{"from":"next_pool","to":"pool","amount_units":9,"reason":"brought_forward","deal_no":6}]}	2026-11-25 23:00:10.459335+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	4bcce94fbf2f2a37ff7cd38a64555c3d549681c4eb6580ade84cd215cee27d5e
61	38bbfac0225b49628efaae2fbd9ba258	61	DeclarationMade	1	{"deal_no":6,"player":"Ada","declaration":"play"}	2026-11-25 23:00:10.466838+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	1b921d118f4a5a2a84abe8936135e46266322aebc1776bd7bfab554841fa85cb
62	38bbfac0225b49628efaae2fbd9ba258	62	DeclarationMade	1	{"deal_no":6,"player":"Ben","declaration":"throw_up"}	2026-11-25 23:00:10.470726+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	5a3ae0880ba4bbe11a09c7adc7d3d0ce367b12d7541c87c1299d57b7d3aacd69
63	38bbfac0225b49628efaae2fbd9ba258	63	DeclarationMade	1	{"deal_no":6,"player":"Cat","declaration":"play"}	2026-11-25 23:00:10.473417+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	c8369f1c9dcf160c0963116e32e5cfdee48bf5a0af172bce66cb75453b333ec9
64	38bbfac0225b49628efaae2fbd9ba258	64	CardPlayed	1	{"deal_no":6,"player":"Ada","card":"3C","trick":1,"replay":false}	2026-11-25 23:00:10.476249+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	98dc439698e9fba9c7cd612d259d8157d7e89e9254a830c9be93caff7864bc76
65	38bbfac0225b49628efaae2fbd9ba258	65	CardPlayed	1	{"deal_no":6,"player":"Cat","card":"5H","trick":1,"replay":false}	2026-11-25 23:00:10.479929+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	3a7734845e2a140a339462f70810e8b931a41f222a5b6a9359e555cdda9e105f
66	38bbfac0225b49628efaae2fbd9ba258	66	TrickWon	1	{"deal_no":6,"trick":1,"winner":"Ada","cards":[["Ada","3C"],["Cat","5H"]],"replay":false}	2026-11-25 23:00:10.479929+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	999a1da1377ae2de84b333b09884c7f009a215db1285486627cc7a927c30aa33
67	38bbfac0225b49628efaae2fbd9ba258	67	PenaltyImposed	1	{"deal_no":6,"player":"Ben","offence":"interfering-with-deal","law":"Baxter-Wray p. 24: interfering with the cards during the deal, single loo; redeal only if cards were mixed or exposed","amount_units":3,"destination":"pool","kind":"fine","forfeits_winnings":false,"throw_up":false,"redeal":false,"replay":"none","detected":false,"evidence":{},"postings":[{"from":"Ben","to":"pool","amount_units":3,"reason":"penalty","offence":"interfering-with-deal","deal_no":6,"loo":false}],"stage":"pre-play","leaves_play":false}	2026-11-25 23:00:10.482244+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	34e0271ba7393c7bef8eab81c20361556ccb2a7c6ee141740795d0071e03379a
68	38bbfac0225b49628efaae2fbd9ba258	68	CardPlayed	1	{"deal_no":6,"player":"Ada","card":"2C","trick":2,"replay":false}	2026-11-25 23:00:10.483857+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	e21d05929868cc954e4183d2978de4f2cf95b0e36185b17dc162532f4e5a3f37
69	38bbfac0225b49628efaae2fbd9ba258	69	CardPlayed	1	{"deal_no":6,"player":"Cat","card":"9H","trick":2,"replay":false}	2026-11-25 23:00:10.490588+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	7cb7eb8935769215f17b99d5485bfae223ae6653b8e091a0e5e898e3179c58ec
70	38bbfac0225b49628efaae2fbd9ba258	70	TrickWon	1	{"deal_no":6,"trick":2,"winner":"Ada","cards":[["Ada","2C"],["Cat","9H"]],"replay":false}	2026-11-25 23:00:10.490588+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	39a9e469b2301636111eff5f573b4dbdf747284eaf8f385d831b8c92e6b9ff36
71	38bbfac0225b49628efaae2fbd9ba258	71	CardPlayed	1	{"deal_no":6,"player":"Ada","card":"6S","trick":3,"replay":false}	2026-11-25 23:00:10.493034+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	e7fff0217e832294715506521680e40b7ed3041198f2367307977c9c59662ca6
72	38bbfac0225b49628efaae2fbd9ba258	72	CardPlayed	1	{"deal_no":6,"player":"Cat","card":"10H","trick":3,"replay":false}	2026-11-25 23:00:10.49664+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	dba801277731bc40d7ec5f7d01ad045159419db5d83fa6f5721e7b5e76a02c8c
73	38bbfac0225b49628efaae2fbd9ba258	73	TrickWon	1	{"deal_no":6,"trick":3,"winner":"Ada","cards":[["Ada","6S"],["Cat","10H"]],"replay":false}	2026-11-25 23:00:10.49664+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	16bc5475905aadbdbb41e299de857120755c5b4c20309686a60efc94afc573cb
74	38bbfac0225b49628efaae2fbd9ba258	74	DealSettled	1	{"deal_no":6,"outcome":"divided","pool_units":15,"loo_units":6,"shares":[{"trick":1,"winner":"Ada","amount_units":5,"paid_to":"Ada","stays_in_pool":null},{"trick":2,"winner":"Ada","amount_units":5,"paid_to":"Ada","stays_in_pool":null},{"trick":3,"winner":"Ada","amount_units":5,"paid_to":"Ada","stays_in_pool":null}],"looed":["Cat"],"carried_units":0,"next_fresh":false,"next_forced":null,"postings":[{"from":"pool","to":"Ada","amount_units":5,"reason":"trick","deal_no":6},{"from":"pool","to":"Ada","amount_units":5,"reason":"trick","deal_no":6},{"from":"pool","to":"Ada","amount_units":5,"reason":"trick","deal_no":6},{"from":"Cat","to":"next_pool","amount_units":6,"reason":"loo","deal_no":6,"loo":true}]}	2026-11-25 23:00:10.49664+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	24d918307315c7713aa8534c7524dd59eb13042246e7d8d85fdd2a8b3ba7f09a
75	38bbfac0225b49628efaae2fbd9ba258	75	SessionEnded	1	{"method":"divide-pool","postings":[{"from":"next_pool","to":"Ada","amount_units":2,"reason":"end_division"},{"from":"next_pool","to":"Ben","amount_units":2,"reason":"end_division"},{"from":"next_pool","to":"Cat","amount_units":2,"reason":"end_division"}]}	2026-11-25 23:00:10.502027+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	c615c0b50c3fc38a4c3144bad22b08ba015e8c97e9c70d2d398fad19babfb400
76	005db11b0985430493ac0fc9f0e1bedd	1	SessionOpened	1	{"name": "generated", "players": ["Ada", "Ben", "Cat", "Dan"], "first_dealer": "Ada", "rules": {"preset": "blenheim", "stake": 3, "deal_price": 3, "fresh_deal_price": 6, "ante": 3, "loo": "limited", "loo_amount": 9, "loo_limit": 21, "single_loo": 3, "loo_capped_at_pool": false, "fresh_pool": "antes", "lead_rule": "one-of-two", "trump_after_trick": "by-lead-rules", "ace_turned_up_king_leads": true, "miss_holder_leads": false, "club_law": true, "force_after_single": false, "dealer_stands_out_above": null, "last_before_dealer_bound": false, "deal_out_of_turn": "stands", "penalties": "blenheim", "variant": "three-card", "pack": 52}, "unit": "counter", "money_per_unit_minor": null, "currency": null, "members": {"Ada": "de4958b7d3674722b75f74d0cec7e903", "Ben": "539abcfd2ca041c7aea889bb94081643", "Cat": "b1a6f86d925840dba673e30c40d0077e", "Dan": "8ff62e5b25574e648f0055ab2659fe5d"}}	2026-11-25 23:00:10.656084+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	f070309532d26bf7f7a7e6a71e2449f6061104e576e1ff5453d877ff4966820b
77	005db11b0985430493ac0fc9f0e1bedd	2	DealStarted	1	{"deal_no":1,"dealer":"Dan","kind":"hand","trump_card":"9D","dealt":["Ada","Ben","Cat","Dan"],"fresh":true,"forced":null,"miss":true,"redeal":false,"face_up":{},"postings":[{"from":"Dan","to":"pool","amount_units":6,"reason":"deal","deal_no":1},{"from":"Ada","to":"pool","amount_units":3,"reason":"ante","deal_no":1},{"from":"Ben","to":"pool","amount_units":3,"reason":"ante","deal_no":1},{"from":"Cat","to":"pool","amount_units":3,"reason":"ante","deal_no":1}]}	2026-11-25 23:00:10.669579+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	ce38a720674b1eefa8513c0cd2a194ff04bf6bf94c3d6da68868ab15f3a422b6
78	005db11b0985430493ac0fc9f0e1bedd	3	DeclarationMade	1	{"deal_no":1,"player":"Ada","declaration":"take_miss"}	2026-11-25 23:00:10.673015+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	595412f3bfcc3887dd19d1a3df7cfdf4c9573593483fe32c7b26ff305098f023
79	005db11b0985430493ac0fc9f0e1bedd	4	DeclarationMade	1	{"deal_no":1,"player":"Ben","declaration":"throw_up"}	2026-11-25 23:00:10.67776+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	72e67b59dc2974369e7c68452ef36d2a42f40e5257bc27b98556ddb5f8f622a3
80	005db11b0985430493ac0fc9f0e1bedd	5	DeclarationMade	1	{"deal_no":1,"player":"Cat","declaration":"throw_up"}	2026-11-25 23:00:10.680028+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	644b54594b4f83457581420353c67e71a76615918709683ca9373627ca2aa759
81	005db11b0985430493ac0fc9f0e1bedd	6	DeclarationMade	1	{"deal_no":1,"player":"Dan","declaration":"play"}	2026-11-25 23:00:10.683102+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	6426568913128593dceb9230eba2eb92ca558ea6e5c52c06c6146bcd01f923ba
82	005db11b0985430493ac0fc9f0e1bedd	7	CardPlayed	1	{"deal_no":1,"player":"Ada","card":"KD","trick":1,"replay":false}	2026-11-25 23:00:10.686069+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	81386810a83fa03689720c83c7d290d813e83be2fd27e026c09a6d495e97c61f
83	005db11b0985430493ac0fc9f0e1bedd	8	CardPlayed	1	{"deal_no":1,"player":"Dan","card":"10D","trick":1,"replay":false}	2026-11-25 23:00:10.688509+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	c1882ddd663fc8bf17af192dc2a8898903f5ea17ba904bcc4548fad91d625f30
84	005db11b0985430493ac0fc9f0e1bedd	9	TrickWon	1	{"deal_no":1,"trick":1,"winner":"Ada","cards":[["Ada","KD"],["Dan","10D"]],"replay":false}	2026-11-25 23:00:10.688509+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	2d85236f7cde5a9c82f93dee8c6cf400e8c22d6d47fb2b84f5599ca678226026
85	005db11b0985430493ac0fc9f0e1bedd	10	CardPlayed	1	{"deal_no":1,"player":"Ada","card":"4D","trick":2,"replay":false}	2026-11-25 23:00:10.690772+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	6c2cf2cec4394b92178714b53c893c9f200d77529ef6d050ddb953be4b7b3c08
86	005db11b0985430493ac0fc9f0e1bedd	11	CardPlayed	1	{"deal_no":1,"player":"Dan","card":"6H","trick":2,"replay":false}	2026-11-25 23:00:10.696218+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	057e5eb703823486745e9bed7ea5d9395e8c176c74c31dc124b3efaa95c1c149
87	005db11b0985430493ac0fc9f0e1bedd	12	TrickWon	1	{"deal_no":1,"trick":2,"winner":"Ada","cards":[["Ada","4D"],["Dan","6H"]],"replay":false}	2026-11-25 23:00:10.696218+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	3783f271561a15e817e185ff3511f3b41cdfbadff38d4330dfd680168c64d898
88	005db11b0985430493ac0fc9f0e1bedd	13	CardPlayed	1	{"deal_no":1,"player":"Ada","card":"3D","trick":3,"replay":false}	2026-11-25 23:00:10.698551+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	1a1e77534672f9265a16b445850c8c6a64de5c0ba4da5f15a4fa966aeb161579
89	005db11b0985430493ac0fc9f0e1bedd	14	CardPlayed	1	{"deal_no":1,"player":"Dan","card":"5H","trick":3,"replay":false}	2026-11-25 23:00:10.702348+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	c26738278aa7ae9035e2855d3e79a61e257e879b54c6ec09f5922fa816e05b9b
90	005db11b0985430493ac0fc9f0e1bedd	15	TrickWon	1	{"deal_no":1,"trick":3,"winner":"Ada","cards":[["Ada","3D"],["Dan","5H"]],"replay":false}	2026-11-25 23:00:10.702348+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	e5ea4e2e79f16ba57556154d3a255942641f2dc5aacc076c12d0f315065a2506
91	005db11b0985430493ac0fc9f0e1bedd	16	DealSettled	1	{"deal_no":1,"outcome":"divided","pool_units":15,"loo_units":9,"shares":[{"trick":1,"winner":"Ada","amount_units":5,"paid_to":"Ada","stays_in_pool":null},{"trick":2,"winner":"Ada","amount_units":5,"paid_to":"Ada","stays_in_pool":null},{"trick":3,"winner":"Ada","amount_units":5,"paid_to":"Ada","stays_in_pool":null}],"looed":["Dan"],"carried_units":0,"next_fresh":false,"next_forced":null,"postings":[{"from":"pool","to":"Ada","amount_units":5,"reason":"trick","deal_no":1},{"from":"pool","to":"Ada","amount_units":5,"reason":"trick","deal_no":1},{"from":"pool","to":"Ada","amount_units":5,"reason":"trick","deal_no":1},{"from":"Dan","to":"next_pool","amount_units":9,"reason":"loo","deal_no":1,"loo":true}]}	2026-11-25 23:00:10.702348+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	6637603f3bf5d92810cdcccc554602655ddf39290a38e4c9c2282d51df708b9a
92	005db11b0985430493ac0fc9f0e1bedd	17	DealStarted	1	{"deal_no":2,"dealer":"Ada","kind":"hand","trump_card":"9H","dealt":["Ben","Cat","Dan","Ada"],"fresh":false,"forced":null,"miss":true,"redeal":false,"face_up":{},"postings":[{"from":"Ada","to":"pool","amount_units":3,"reason":"deal","deal_no":2},{"from":"next_pool","to":"pool","amount_units":9,"reason":"brought_forward","deal_no":2}]}	2026-11-25 23:00:10.708265+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	6b1e0a7bb4d291aa5c4b7e309a80fbfe27c06f44e65aaeffcf2d5c7f80088b1f
93	005db11b0985430493ac0fc9f0e1bedd	18	DeclarationMade	1	{"deal_no":2,"player":"Ben","declaration":"throw_up"}	2026-11-25 23:00:10.710475+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	e36c5867f38bd8b87c02b8121e22b9346de1341c791d0b32781d5904201580c3
94	005db11b0985430493ac0fc9f0e1bedd	19	DeclarationMade	1	{"deal_no":2,"player":"Cat","declaration":"take_miss"}	2026-11-25 23:00:10.713374+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	f9a37756120243ccac020aae5f86d223bbce4a9d0367345120dd9a0b3ce9cb84
95	005db11b0985430493ac0fc9f0e1bedd	20	DeclarationMade	1	{"deal_no":2,"player":"Dan","declaration":"throw_up"}	2026-11-25 23:00:10.727046+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	dc1082f67fdac0087caacf2e6d11ac7fa5e7032ced9cf1019598683dbbb2045c
96	005db11b0985430493ac0fc9f0e1bedd	21	DeclarationMade	1	{"deal_no":2,"player":"Ada","declaration":"play"}	2026-11-25 23:00:10.731515+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	467a00365271aa7a311089c13fb8d506a2ecdcc9bbe99d8c69c201fe7bb7df60
97	005db11b0985430493ac0fc9f0e1bedd	22	TrickWon	1	{"deal_no":2,"trick":1,"winner":"Ada","cards":[],"replay":false}	2026-11-25 23:00:10.737349+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	2a758da50a40ba416d3dfaa8b5f534569de3afda4886df174c197ce2b1e40e4f
98	005db11b0985430493ac0fc9f0e1bedd	23	TrickWon	1	{"deal_no":2,"trick":2,"winner":"Ada","cards":[],"replay":false}	2026-11-25 23:00:10.74006+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	0921e9effdf3b9acddfcf4b61bd1dbd8daf07318696b1c940283490b51b36ec3
99	005db11b0985430493ac0fc9f0e1bedd	24	TrickWon	1	{"deal_no":2,"trick":3,"winner":"Ada","cards":[],"replay":false}	2026-11-25 23:00:10.743074+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	c1f5b9ac3b683320e99b76f82ccc39929eec65c9148ed689c099b886118e3f72
100	005db11b0985430493ac0fc9f0e1bedd	25	DealSettled	1	{"deal_no":2,"outcome":"divided","pool_units":12,"loo_units":9,"shares":[{"trick":1,"winner":"Ada","amount_units":4,"paid_to":"Ada","stays_in_pool":null},{"trick":2,"winner":"Ada","amount_units":4,"paid_to":"Ada","stays_in_pool":null},{"trick":3,"winner":"Ada","amount_units":4,"paid_to":"Ada","stays_in_pool":null}],"looed":["Cat"],"carried_units":0,"next_fresh":false,"next_forced":null,"postings":[{"from":"pool","to":"Ada","amount_units":4,"reason":"trick","deal_no":2},{"from":"pool","to":"Ada","amount_units":4,"reason":"trick","deal_no":2},{"from":"pool","to":"Ada","amount_units":4,"reason":"trick","deal_no":2},{"from":"Cat","to":"next_pool","amount_units":9,"reason":"loo","deal_no":2,"loo":true}]}	2026-11-25 23:00:10.743074+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	49abdef0781b9cd5724b060a0b77311921572041d8ffe743be5e5031d63d6492
101	005db11b0985430493ac0fc9f0e1bedd	26	PlayerJoined	1	{"player":"Hal","after":"Dan"}	2026-11-25 23:00:10.745879+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	c99519aebafdb449631ea8fc189ff699586e790fb9cafe968ee8f3e8ece89ff2
102	005db11b0985430493ac0fc9f0e1bedd	27	DealStarted	1	{"deal_no":3,"dealer":"Cat","kind":"hand","trump_card":"AD","dealt":["Dan","Hal","Ada","Ben","Cat"],"fresh":false,"forced":null,"miss":true,"redeal":false,"face_up":{},"postings":[{"from":"Cat","to":"pool","amount_units":3,"reason":"deal","deal_no":3},{"from":"next_pool","to":"pool","amount_units":9,"reason":"brought_forward","deal_no":3}]}	2026-11-25 23:00:10.747502+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	64b637f108f25752b148e59b11d3532deddb7fb5cf2d2490abe07918cf35086a
103	005db11b0985430493ac0fc9f0e1bedd	28	DeclarationMade	1	{"deal_no":3,"player":"Dan","declaration":"throw_up"}	2026-11-25 23:00:10.750233+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	462d93551944e63318907611531f4f58250084c2ad3b89cbecfedc54b4d66a7d
104	005db11b0985430493ac0fc9f0e1bedd	29	DeclarationMade	1	{"deal_no":3,"player":"Hal","declaration":"throw_up"}	2026-11-25 23:00:10.758343+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	e3f6cfc910c056e1eba6a0df3bf768ca4438e9ea306beb3aac17197bc9b60aaf
105	005db11b0985430493ac0fc9f0e1bedd	30	DeclarationMade	1	{"deal_no":3,"player":"Ada","declaration":"take_miss"}	2026-11-25 23:00:10.760638+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	e29ea1d7d8f7ae24978fc6cb5e3b5ae41e9d7944478bb3200111ec3cfd347267
106	005db11b0985430493ac0fc9f0e1bedd	31	DeclarationMade	1	{"deal_no":3,"player":"Ben","declaration":"throw_up"}	2026-11-25 23:00:10.762918+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	072433bfa6a2a384d9c837934a9b2364ec0622cb86b1e4adf1eb0f8ebf8ac512
129	4f5d314d22a444aead06f2088706fba1	16	TrickWon	1	{"deal_no":1,"trick":2,"winner":"Dan","cards":[["Ada","AH"],["Ben","9H"],["Cat","10H"],["Dan","10D"]],"replay":false}	2026-11-25 23:00:10.956778+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	e02817912b93204fac755cda3a0c5aa156f29a19c5feedf737983c61f7511a1e
107	005db11b0985430493ac0fc9f0e1bedd	32	PenaltyImposed	1	{"deal_no":3,"player":"Dan","offence":"looked-at-own-cards","law":"Blenheim law 7: looking at his cards before his turn","amount_units":3,"destination":"pool","kind":"fine","forfeits_winnings":false,"throw_up":false,"redeal":false,"replay":"none","detected":false,"evidence":{},"postings":[{"from":"Dan","to":"pool","amount_units":3,"reason":"penalty","offence":"looked-at-own-cards","deal_no":3,"loo":false}],"stage":"pre-play","leaves_play":false}	2026-11-25 23:00:10.764249+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	2ba237b6eae6590d5007cac02b0bf79a213fb87881b1d1205db22c0ec0b42e74
108	005db11b0985430493ac0fc9f0e1bedd	33	DeclarationMade	1	{"deal_no":3,"player":"Cat","declaration":"play"}	2026-11-25 23:00:10.770377+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	3431dd8064f0fea7ebfefb78f23be3be9f184887d946a4fe6d992ced51c0afb3
109	005db11b0985430493ac0fc9f0e1bedd	34	TrickWon	1	{"deal_no":3,"trick":1,"winner":"Cat","cards":[],"replay":false}	2026-11-25 23:00:10.773+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	452249bde3971d13ff6d4940b36d596c7c13be3cd4732ca63744799ddb6b2bfd
110	005db11b0985430493ac0fc9f0e1bedd	35	TrickWon	1	{"deal_no":3,"trick":2,"winner":"Ada","cards":[],"replay":false}	2026-11-25 23:00:10.776829+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	5b59027ede81cd543b2abc5162bbf1edd158725179740b5b6b64cb72e145b2cb
111	005db11b0985430493ac0fc9f0e1bedd	36	TrickWon	1	{"deal_no":3,"trick":3,"winner":"Cat","cards":[],"replay":false}	2026-11-25 23:00:10.77976+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	1dee986f649f4202b33c10ac6af4d84f5bf1ab60f734ae044d16bbb1cfe094c6
112	005db11b0985430493ac0fc9f0e1bedd	37	DealSettled	1	{"deal_no":3,"outcome":"divided","pool_units":15,"loo_units":9,"shares":[{"trick":1,"winner":"Cat","amount_units":5,"paid_to":"Cat","stays_in_pool":null},{"trick":2,"winner":"Ada","amount_units":5,"paid_to":"Ada","stays_in_pool":null},{"trick":3,"winner":"Cat","amount_units":5,"paid_to":"Cat","stays_in_pool":null}],"looed":[],"carried_units":0,"next_fresh":true,"next_forced":null,"postings":[{"from":"pool","to":"Cat","amount_units":5,"reason":"trick","deal_no":3},{"from":"pool","to":"Ada","amount_units":5,"reason":"trick","deal_no":3},{"from":"pool","to":"Cat","amount_units":5,"reason":"trick","deal_no":3}]}	2026-11-25 23:00:10.77976+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	84fe604d5b59ad21f845cc94451ebef31f636e52462441327f4e5eda1e16a2f2
113	005db11b0985430493ac0fc9f0e1bedd	38	SessionEnded	1	{"method":"single","postings":[]}	2026-11-25 23:00:10.789836+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	647f9158cd12575f0da337935f67b3a73107b1300824b60ffc22a410c29139c5
114	4f5d314d22a444aead06f2088706fba1	1	SessionOpened	1	{"name": "generated", "players": ["Ada", "Ben", "Cat", "Dan"], "first_dealer": "Ada", "rules": {"preset": "enquire-within", "stake": 3, "deal_price": 1, "fresh_deal_price": 1, "ante": 0, "loo": "limited", "loo_amount": 3, "loo_limit": null, "single_loo": 1, "loo_capped_at_pool": false, "fresh_pool": "antes", "lead_rule": "highest-of-two", "trump_after_trick": "none", "ace_turned_up_king_leads": false, "miss_holder_leads": false, "club_law": false, "force_after_single": false, "dealer_stands_out_above": null, "last_before_dealer_bound": false, "deal_out_of_turn": "refuse", "penalties": "enquire-within", "variant": "three-card", "pack": 52}, "unit": "counter", "money_per_unit_minor": null, "currency": null, "members": {"Ada": "de4958b7d3674722b75f74d0cec7e903", "Ben": "539abcfd2ca041c7aea889bb94081643", "Cat": "b1a6f86d925840dba673e30c40d0077e", "Dan": "8ff62e5b25574e648f0055ab2659fe5d"}}	2026-11-25 23:00:10.839445+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	7fa960fb4df33b83ecfc980f56ba3c6a7a26409cf6d3e47ffb5ce10995bae9d6
115	4f5d314d22a444aead06f2088706fba1	2	DealStarted	1	{"deal_no":1,"dealer":"Ada","kind":"hand","trump_card":"7D","dealt":["Ben","Cat","Dan","Ada"],"fresh":true,"forced":null,"miss":true,"redeal":false,"face_up":{},"postings":[{"from":"Ada","to":"pool","amount_units":1,"reason":"deal","deal_no":1}]}	2026-11-25 23:00:10.845067+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	88c3a500661c46dd6c3a851abe7b8ffc0d3f1adaee495cb73776b4e7ba1242f2
116	4f5d314d22a444aead06f2088706fba1	3	DeclarationMade	1	{"deal_no":1,"player":"Ben","declaration":"play"}	2026-11-25 23:00:10.84739+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	7a537eaf5bcffb99d87c3ab07945e10bf77547e5688ea60adb962e07dd825f6b
117	4f5d314d22a444aead06f2088706fba1	4	DeclarationMade	1	{"deal_no":1,"player":"Cat","declaration":"play"}	2026-11-25 23:00:10.860046+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	12a5fc02740a2e13c85363cf10d385619383a40b7bf51a1b6bc90d1a26ce2fe2
118	4f5d314d22a444aead06f2088706fba1	5	DeclarationMade	1	{"deal_no":1,"player":"Dan","declaration":"take_miss"}	2026-11-25 23:00:10.862196+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	48952c9dd817a985a910e344169d2ebb74da37218198041cb33ab12a3a685713
119	4f5d314d22a444aead06f2088706fba1	6	DeclarationMade	1	{"deal_no":1,"player":"Ada","declaration":"play"}	2026-11-25 23:00:10.866147+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	2a3dbc681167dd2c2beb424b7b31208b1c01ac5c4a169eace160a679032c6e76
120	4f5d314d22a444aead06f2088706fba1	7	CardPlayed	1	{"deal_no":1,"player":"Ben","card":"7S","trick":1,"replay":false}	2026-11-25 23:00:10.869523+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	db1090fece323228630767f7d5b4db9677ba7e3d9a024a5df2aec221f0f295cc
121	4f5d314d22a444aead06f2088706fba1	8	CardPlayed	1	{"deal_no":1,"player":"Cat","card":"JS","trick":1,"replay":false}	2026-11-25 23:00:10.890082+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	7ccb6aba58583a00951981fbc8f67c4ab1fb0bceff04bdafc6f62c669a3f72fa
122	4f5d314d22a444aead06f2088706fba1	9	CardPlayed	1	{"deal_no":1,"player":"Dan","card":"4S","trick":1,"replay":false}	2026-11-25 23:00:10.893856+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	9c0d66a6b31f97e7dbb9af6930f120136288bcd10dd34240857ace8eab278207
123	4f5d314d22a444aead06f2088706fba1	10	CardPlayed	1	{"deal_no":1,"player":"Ada","card":"QS","trick":1,"replay":false}	2026-11-25 23:00:10.910506+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	e72a0deb6b5bc92139ddce6ae1aea7a2123697476e485928fb168e6aff4e814b
124	4f5d314d22a444aead06f2088706fba1	11	TrickWon	1	{"deal_no":1,"trick":1,"winner":"Ada","cards":[["Ben","7S"],["Cat","JS"],["Dan","4S"],["Ada","QS"]],"replay":false}	2026-11-25 23:00:10.910506+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	afee0abb817328b2b74270e6f107fdeaa7c8d27b503901a21b2ea8923a03d971
125	4f5d314d22a444aead06f2088706fba1	12	CardPlayed	1	{"deal_no":1,"player":"Ada","card":"AH","trick":2,"replay":false}	2026-11-25 23:00:10.943004+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	343d13746767c263c187ff60101a845dff2e64e694295a312a85c82b9cc2b480
126	4f5d314d22a444aead06f2088706fba1	13	CardPlayed	1	{"deal_no":1,"player":"Ben","card":"9H","trick":2,"replay":false}	2026-11-25 23:00:10.946643+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	3a6a3c8363126ff8cd5815c16ecf944f8a4f1d0958cfb9deec991015fd6f9071
127	4f5d314d22a444aead06f2088706fba1	14	CardPlayed	1	{"deal_no":1,"player":"Cat","card":"10H","trick":2,"replay":false}	2026-11-25 23:00:10.952399+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	a2eb0883de08193058fcbe2c47a582c03572347243c3bef5756dcbd0a899cf23
128	4f5d314d22a444aead06f2088706fba1	15	CardPlayed	1	{"deal_no":1,"player":"Dan","card":"10D","trick":2,"replay":false}	2026-11-25 23:00:10.956778+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	a372fb957e87f7b5e2c9d483ced6cdd1fe3b1c5c521dc860d0696e448cc9c351
130	4f5d314d22a444aead06f2088706fba1	17	CardPlayed	1	{"deal_no":1,"player":"Dan","card":"9C","trick":3,"replay":false}	2026-11-25 23:00:10.961736+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	366ea80a97a7085880679bb52a333cf6ff37e695646ba2f438cc7f7f8ab9aa79
131	4f5d314d22a444aead06f2088706fba1	18	CardPlayed	1	{"deal_no":1,"player":"Ada","card":"6H","trick":3,"replay":false}	2026-11-25 23:00:10.966324+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	b0b714d7834f1a7198d866295be8b361531eadb9e650be96eef13c687d0dbf93
132	4f5d314d22a444aead06f2088706fba1	19	CardPlayed	1	{"deal_no":1,"player":"Ben","card":"10S","trick":3,"replay":false}	2026-11-25 23:00:10.968492+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	d2fc3b02e0e8bfcd5b9501228abc78d7f09e03370e5d5f026fbea0e15d10f697
133	4f5d314d22a444aead06f2088706fba1	20	CardPlayed	1	{"deal_no":1,"player":"Cat","card":"8C","trick":3,"replay":false}	2026-11-25 23:00:10.978331+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	a03bb9c09786394d7d861f8945d2f82a1dee3d473a2e082fb15ed4d8d72e9cbe
134	4f5d314d22a444aead06f2088706fba1	21	TrickWon	1	{"deal_no":1,"trick":3,"winner":"Dan","cards":[["Dan","9C"],["Ada","6H"],["Ben","10S"],["Cat","8C"]],"replay":false}	2026-11-25 23:00:10.978331+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	7fa8390826c5e9c757f2b990ca473724525ab079056f90ed2ff29c543b6c7738
135	4f5d314d22a444aead06f2088706fba1	22	DealSettled	1	{"deal_no":1,"outcome":"divided","pool_units":1,"loo_units":3,"shares":[{"trick":1,"winner":"Ada","amount_units":1,"paid_to":"Ada","stays_in_pool":null},{"trick":2,"winner":"Dan","amount_units":0,"paid_to":"Dan","stays_in_pool":null},{"trick":3,"winner":"Dan","amount_units":0,"paid_to":"Dan","stays_in_pool":null}],"looed":["Ben","Cat"],"carried_units":0,"next_fresh":false,"next_forced":null,"postings":[{"from":"pool","to":"Ada","amount_units":1,"reason":"trick","deal_no":1},{"from":"Ben","to":"next_pool","amount_units":3,"reason":"loo","deal_no":1,"loo":true},{"from":"Cat","to":"next_pool","amount_units":3,"reason":"loo","deal_no":1,"loo":true}]}	2026-11-25 23:00:10.978331+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	b918eb934b05af5ea0725d9b7d576f2a5e97ee3b88323b7090402e9820a2be8a
136	4f5d314d22a444aead06f2088706fba1	23	DealStarted	1	{"deal_no":2,"dealer":"Ben","kind":"hand","trump_card":"2S","dealt":["Cat","Dan","Ada","Ben"],"fresh":false,"forced":null,"miss":true,"redeal":false,"face_up":{},"postings":[{"from":"Ben","to":"pool","amount_units":1,"reason":"deal","deal_no":2},{"from":"next_pool","to":"pool","amount_units":6,"reason":"brought_forward","deal_no":2}]}	2026-11-25 23:00:10.980629+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	282165af9c03499166eab98d6318e633f524b49b503cc2952d409201a7689589
137	4f5d314d22a444aead06f2088706fba1	24	PenaltyImposed	1	{"deal_no":2,"player":"Ada","offence":"looked-at-another-hand","law":"Enquire Within §97 vi: looking at a neighbour's hand","amount_units":3,"destination":"next_pool","kind":"loo","forfeits_winnings":false,"throw_up":false,"redeal":false,"replay":"none","detected":false,"evidence":{},"postings":[{"from":"Ada","to":"next_pool","amount_units":3,"reason":"penalty","offence":"looked-at-another-hand","deal_no":2,"loo":true}],"stage":"pre-play","leaves_play":false}	2026-11-25 23:00:10.985264+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	8fe702d4423a0fce19c1d57ba42cee7e831d5c10ba5e2365bb61dbfd34d8ad72
138	4f5d314d22a444aead06f2088706fba1	25	DeclarationMade	1	{"deal_no":2,"player":"Cat","declaration":"throw_up"}	2026-11-25 23:00:10.989903+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	f4808c76be0986eca9ad06f513797df499582d6e85f1829b1db830420536760c
139	4f5d314d22a444aead06f2088706fba1	26	DeclarationMade	1	{"deal_no":2,"player":"Dan","declaration":"play"}	2026-11-25 23:00:10.991891+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	6e118b2e16d6e49f7ae8fe128137458462a2072179a79cd0e52fc4dc73f00f1b
140	4f5d314d22a444aead06f2088706fba1	27	DeclarationMade	1	{"deal_no":2,"player":"Ada","declaration":"play"}	2026-11-25 23:00:10.994013+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	abd48ccb0e9ef53fe61625f052dcce970c9faa107ea4f03cec5bae27bbbaa834
141	4f5d314d22a444aead06f2088706fba1	28	DeclarationMade	1	{"deal_no":2,"player":"Ben","declaration":"play"}	2026-11-25 23:00:10.995414+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	5bd97012f8f2e9873e4e51d6619f3236a419a950d116c1cd777f3ac5aaa9261d
142	4f5d314d22a444aead06f2088706fba1	29	PenaltyImposed	1	{"deal_no":2,"player":"Dan","offence":"played-out-of-turn","law":"Enquire Within §97 ii: playing out of turn","amount_units":3,"destination":"next_pool","kind":"loo","forfeits_winnings":false,"throw_up":false,"redeal":false,"replay":"none","detected":false,"evidence":{},"postings":[{"from":"Dan","to":"next_pool","amount_units":3,"reason":"penalty","offence":"played-out-of-turn","deal_no":2,"loo":true}],"stage":"in-play","leaves_play":false}	2026-11-25 23:00:10.997423+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	0d7d774e04e02bc00b19ee83a708a37b17b5fba0fb47177b2f6c6744faa1b354
143	4f5d314d22a444aead06f2088706fba1	30	TrickWon	1	{"deal_no":2,"trick":1,"winner":"Ada","cards":[],"replay":false}	2026-11-25 23:00:10.999007+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	b8b811ceca359abb2896acfcb592c823f3fd5a67c0b5864385c1915cfe390c14
144	4f5d314d22a444aead06f2088706fba1	31	TrickWon	1	{"deal_no":2,"trick":2,"winner":"Ben","cards":[],"replay":false}	2026-11-25 23:00:11.000167+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	cbb09b0e52730c229f79971abcf8cb8b4447bfd014ab2f0c2041c4e7a305f9cb
145	4f5d314d22a444aead06f2088706fba1	32	TrickWon	1	{"deal_no":2,"trick":3,"winner":"Ada","cards":[],"replay":false}	2026-11-25 23:00:11.001379+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	0a6d7d16a2352844c35e81b4631414a87fe529a0c0e138dabe715b652f6c5637
146	4f5d314d22a444aead06f2088706fba1	33	DealSettled	1	{"deal_no":2,"outcome":"divided","pool_units":7,"loo_units":3,"shares":[{"trick":1,"winner":"Ada","amount_units":3,"paid_to":"Ada","stays_in_pool":null},{"trick":2,"winner":"Ben","amount_units":2,"paid_to":"Ben","stays_in_pool":null},{"trick":3,"winner":"Ada","amount_units":2,"paid_to":"Ada","stays_in_pool":null}],"looed":[],"carried_units":0,"next_fresh":false,"next_forced":null,"postings":[{"from":"pool","to":"Ada","amount_units":3,"reason":"trick","deal_no":2},{"from":"pool","to":"Ben","amount_units":2,"reason":"trick","deal_no":2},{"from":"pool","to":"Ada","amount_units":2,"reason":"trick","deal_no":2}]}	2026-11-25 23:00:11.001379+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	9ebccbf8655d88f6844a877a0b633a58997f2694e84d9d3fb6ef896236b9c0ce
147	4f5d314d22a444aead06f2088706fba1	34	DealStarted	1	{"deal_no":3,"dealer":"Cat","kind":"hand","trump_card":"KH","dealt":["Dan","Ada","Ben","Cat"],"fresh":false,"forced":null,"miss":true,"redeal":false,"face_up":{},"postings":[{"from":"Cat","to":"pool","amount_units":1,"reason":"deal","deal_no":3},{"from":"next_pool","to":"pool","amount_units":6,"reason":"brought_forward","deal_no":3}]}	2026-11-25 23:00:11.003789+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	3d23b251a5e4afeb7289093929ef3970eb232658c0ff18e84202c67cc82ef8e1
148	4f5d314d22a444aead06f2088706fba1	35	DeclarationMade	1	{"deal_no":3,"player":"Dan","declaration":"play"}	2026-11-25 23:00:11.009452+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	c370a5baeb5f9638109d433ca8df41896772ae2074f3c7a1899e9f8de6859ab3
149	4f5d314d22a444aead06f2088706fba1	36	DeclarationMade	1	{"deal_no":3,"player":"Ada","declaration":"throw_up"}	2026-11-25 23:00:11.013741+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	52ea4dcbe6336e6fa9677b6964b73ae94b4075fc833c939d6845311172656f2e
150	4f5d314d22a444aead06f2088706fba1	37	DeclarationMade	1	{"deal_no":3,"player":"Ben","declaration":"take_miss"}	2026-11-25 23:00:11.016088+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	61deb70be6e33a30dd86ed1bbbfffefc2275ccecdd6aa26f84a9ee5e860a5002
151	4f5d314d22a444aead06f2088706fba1	38	DeclarationMade	1	{"deal_no":3,"player":"Cat","declaration":"throw_up"}	2026-11-25 23:00:11.020338+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	e9873831b5e2682485a43b948b7ccbd35e8fc28a587d225a12e7fe4ee02c12df
152	4f5d314d22a444aead06f2088706fba1	39	CardPlayed	1	{"deal_no":3,"player":"Dan","card":"3S","trick":1,"replay":false}	2026-11-25 23:00:11.023644+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	7c7533954937bd476a1bed5fa5d3393aab439668b7404d2967ead6f19ffb6894
153	4f5d314d22a444aead06f2088706fba1	40	CardPlayed	1	{"deal_no":3,"player":"Ben","card":"7S","trick":1,"replay":false}	2026-11-25 23:00:11.025585+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	a5c934fcbed112821d84b14e7449cfc092fe3b18d4d8f4ba360050beaf09a62d
154	4f5d314d22a444aead06f2088706fba1	41	TrickWon	1	{"deal_no":3,"trick":1,"winner":"Ben","cards":[["Dan","3S"],["Ben","7S"]],"replay":false}	2026-11-25 23:00:11.025585+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	8110b54d947f1a3a48006ceb5819e81742198807817279fa1a11e6b9093a8d40
155	4f5d314d22a444aead06f2088706fba1	42	CardPlayed	1	{"deal_no":3,"player":"Ben","card":"2D","trick":2,"replay":false}	2026-11-25 23:00:11.073232+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	b80c24acd982cb9a6dcf07a27fb11fc8b40c8b4c5a52a07f8349b0877f34d615
156	4f5d314d22a444aead06f2088706fba1	43	CardPlayed	1	{"deal_no":3,"player":"Dan","card":"AD","trick":2,"replay":false}	2026-11-25 23:00:11.079063+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	19c4fc56fd7165882ddf8b390782be65d10564b368280073c14d25de224da5db
157	4f5d314d22a444aead06f2088706fba1	44	TrickWon	1	{"deal_no":3,"trick":2,"winner":"Dan","cards":[["Ben","2D"],["Dan","AD"]],"replay":false}	2026-11-25 23:00:11.079063+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	74e13d36896cfa3f0462df8e178957a57f7acc97ba8be966a7d2ce1f6926e8b0
158	4f5d314d22a444aead06f2088706fba1	45	CardPlayed	1	{"deal_no":3,"player":"Dan","card":"4H","trick":3,"replay":false}	2026-11-25 23:00:11.08698+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	89c70bb08683609d1ce10611f0799f6faf390114e846d89f64b8c6d30218d4e0
159	4f5d314d22a444aead06f2088706fba1	46	CardPlayed	1	{"deal_no":3,"player":"Ben","card":"QD","trick":3,"replay":false}	2026-11-25 23:00:11.091153+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	c317515b3a51a21806d60a41ece1b00074dfa51f00893635c3fa213c40816119
160	4f5d314d22a444aead06f2088706fba1	47	TrickWon	1	{"deal_no":3,"trick":3,"winner":"Dan","cards":[["Dan","4H"],["Ben","QD"]],"replay":false}	2026-11-25 23:00:11.091153+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	d364e6a8c127bf24a31a11e44e5f053db77ce49296a56174f9029fac109b7087
161	4f5d314d22a444aead06f2088706fba1	48	DealSettled	1	{"deal_no":3,"outcome":"divided","pool_units":7,"loo_units":3,"shares":[{"trick":1,"winner":"Ben","amount_units":3,"paid_to":"Ben","stays_in_pool":null},{"trick":2,"winner":"Dan","amount_units":2,"paid_to":"Dan","stays_in_pool":null},{"trick":3,"winner":"Dan","amount_units":2,"paid_to":"Dan","stays_in_pool":null}],"looed":[],"carried_units":0,"next_fresh":true,"next_forced":null,"postings":[{"from":"pool","to":"Ben","amount_units":3,"reason":"trick","deal_no":3},{"from":"pool","to":"Dan","amount_units":2,"reason":"trick","deal_no":3},{"from":"pool","to":"Dan","amount_units":2,"reason":"trick","deal_no":3}]}	2026-11-25 23:00:11.091153+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	2fea6a8d6c22478d182ece5f45f2c8b788a8f4a6aff11c1e0f97a27d91affec7
162	4f5d314d22a444aead06f2088706fba1	49	DealStarted	1	{"deal_no":4,"dealer":"Dan","kind":"hand","trump_card":"6H","dealt":["Ada","Ben","Cat","Dan"],"fresh":true,"forced":null,"miss":true,"redeal":false,"face_up":{},"postings":[{"from":"Dan","to":"pool","amount_units":1,"reason":"deal","deal_no":4}]}	2026-11-25 23:00:11.117369+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	4790c25e8d4a484a0eba7bb6980706a5a1cf2a6938a0652f7b400a00fb554987
163	4f5d314d22a444aead06f2088706fba1	50	DeclarationMade	1	{"deal_no":4,"player":"Ada","declaration":"play"}	2026-11-25 23:00:11.132871+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	be1802cf2f53af58177d6d3c38602c71fc0c109b3b69a5f25aa4a8f98500da39
164	4f5d314d22a444aead06f2088706fba1	51	DeclarationMade	1	{"deal_no":4,"player":"Ben","declaration":"take_miss"}	2026-11-25 23:00:11.137236+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	0ca7604edb2c4b7e26921eecc80c6932027fd6e7f491a0bb55b0a06aed60b686
165	4f5d314d22a444aead06f2088706fba1	52	DeclarationMade	1	{"deal_no":4,"player":"Cat","declaration":"play"}	2026-11-25 23:00:11.14056+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	2270bb977d66cd6c8761ba799cff2834a45b0fb99e71571379838dd8ffce4e50
166	4f5d314d22a444aead06f2088706fba1	53	DeclarationMade	1	{"deal_no":4,"player":"Dan","declaration":"play"}	2026-11-25 23:00:11.143346+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	6668d044ddd8920e8d56a392deeee7d4acda2577272617d608755107d76f3cd9
167	4f5d314d22a444aead06f2088706fba1	54	CardPlayed	1	{"deal_no":4,"player":"Ada","card":"JH","trick":1,"replay":false}	2026-11-25 23:00:11.146602+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	5b5ab50bbb4cb30940d26582f1c6d0ce5c858912788c5a1e4c3065b659eaa105
168	4f5d314d22a444aead06f2088706fba1	55	CardPlayed	1	{"deal_no":4,"player":"Ben","card":"2H","trick":1,"replay":false}	2026-11-25 23:00:11.150126+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	39882e3579859753a28fa0f5ec71cfb3a841eba20dc013d5372ea66b430c19ee
169	4f5d314d22a444aead06f2088706fba1	56	CardPlayed	1	{"deal_no":4,"player":"Cat","card":"7H","trick":1,"replay":false}	2026-11-25 23:00:11.16241+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	e863fe659be8b34369adb9e1d710fdfdb604434534e3ca010961866eb21363fb
170	4f5d314d22a444aead06f2088706fba1	57	CardPlayed	1	{"deal_no":4,"player":"Dan","card":"AC","trick":1,"replay":false}	2026-11-25 23:00:11.165577+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	df547d5196d8c41d13b0fda15f8f0f61848afca2fc91fe93e4d41118b319d9c5
171	4f5d314d22a444aead06f2088706fba1	58	TrickWon	1	{"deal_no":4,"trick":1,"winner":"Ada","cards":[["Ada","JH"],["Ben","2H"],["Cat","7H"],["Dan","AC"]],"replay":false}	2026-11-25 23:00:11.165577+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	1c60ead8c494279d7a489b651a7af263b507e330318e702943351d2fd13de5c0
172	4f5d314d22a444aead06f2088706fba1	59	CardPlayed	1	{"deal_no":4,"player":"Ada","card":"10D","trick":2,"replay":false}	2026-11-25 23:00:11.186703+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	4ba6bb73ef0dfdc56eb1cefaaa809c2cd9a1d76d1f07ef44cf8118eb0b60aaee
173	4f5d314d22a444aead06f2088706fba1	60	CardPlayed	1	{"deal_no":4,"player":"Ben","card":"KD","trick":2,"replay":false}	2026-11-25 23:00:11.190864+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	86579e1e2258634fabb7e0fffd1053044b081115224ffa892ecbeb4c5efed683
174	4f5d314d22a444aead06f2088706fba1	61	CardPlayed	1	{"deal_no":4,"player":"Cat","card":"JC","trick":2,"replay":false}	2026-11-25 23:00:11.233178+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	d7e09623a6bd44fb6e92c7cc9529c06e9562faf735afd62d66440b610ab01ac4
175	4f5d314d22a444aead06f2088706fba1	62	CardPlayed	1	{"deal_no":4,"player":"Dan","card":"KS","trick":2,"replay":false}	2026-11-25 23:00:11.255443+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	b2da1eccee7f1bd3c71488c8a9e39ea6eb5a14f4941a34a0e1c8a1a3ddd983a7
176	4f5d314d22a444aead06f2088706fba1	63	TrickWon	1	{"deal_no":4,"trick":2,"winner":"Ben","cards":[["Ada","10D"],["Ben","KD"],["Cat","JC"],["Dan","KS"]],"replay":false}	2026-11-25 23:00:11.255443+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	81fd560f6af293c184f66049cbc28514aba69e449a04767fffd9942261af0c0a
177	4f5d314d22a444aead06f2088706fba1	64	CardPlayed	1	{"deal_no":4,"player":"Ben","card":"9S","trick":3,"replay":false}	2026-11-25 23:00:11.268885+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	30967ba1c3a177ab5c838a87898faf440eebdf2383e6f460f93236b36a0086e6
178	4f5d314d22a444aead06f2088706fba1	65	CardPlayed	1	{"deal_no":4,"player":"Cat","card":"5S","trick":3,"replay":false}	2026-11-25 23:00:11.294849+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	099b2569869819d544c5a9287c357fbdc35f24d07f6b03e94da1668e2e891883
179	4f5d314d22a444aead06f2088706fba1	66	CardPlayed	1	{"deal_no":4,"player":"Dan","card":"9C","trick":3,"replay":false}	2026-11-25 23:00:11.297495+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	ed3c228d574f37c6f1fa7c9ef5ae904db6337667386c5d1254029eb9af3918fa
180	4f5d314d22a444aead06f2088706fba1	67	CardPlayed	1	{"deal_no":4,"player":"Ada","card":"10C","trick":3,"replay":false}	2026-11-25 23:00:11.313862+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	43782f8ff870a9e2846feda1c56a86b96e8f1c2f5ad79b5ec6052cec97217c9d
181	4f5d314d22a444aead06f2088706fba1	68	TrickWon	1	{"deal_no":4,"trick":3,"winner":"Ben","cards":[["Ben","9S"],["Cat","5S"],["Dan","9C"],["Ada","10C"]],"replay":false}	2026-11-25 23:00:11.313862+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	d89a72967e5e27eff3a03bdb1371c23b41b2465a4dc88624216aa0e7e46e7782
182	4f5d314d22a444aead06f2088706fba1	69	DealSettled	1	{"deal_no":4,"outcome":"divided","pool_units":1,"loo_units":3,"shares":[{"trick":1,"winner":"Ada","amount_units":1,"paid_to":"Ada","stays_in_pool":null},{"trick":2,"winner":"Ben","amount_units":0,"paid_to":"Ben","stays_in_pool":null},{"trick":3,"winner":"Ben","amount_units":0,"paid_to":"Ben","stays_in_pool":null}],"looed":["Cat","Dan"],"carried_units":0,"next_fresh":false,"next_forced":null,"postings":[{"from":"pool","to":"Ada","amount_units":1,"reason":"trick","deal_no":4},{"from":"Cat","to":"next_pool","amount_units":3,"reason":"loo","deal_no":4,"loo":true},{"from":"Dan","to":"next_pool","amount_units":3,"reason":"loo","deal_no":4,"loo":true}]}	2026-11-25 23:00:11.313862+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	b8ef3173ae3ce7f7ed8495997fc31990e4b5ba338e5145d14f97a0a9aacaba55
183	4f5d314d22a444aead06f2088706fba1	70	DealStarted	1	{"deal_no":5,"dealer":"Ada","kind":"hand","trump_card":"3H","dealt":["Ben","Cat","Dan","Ada"],"fresh":false,"forced":null,"miss":true,"redeal":false,"face_up":{},"postings":[{"from":"Ada","to":"pool","amount_units":1,"reason":"deal","deal_no":5},{"from":"next_pool","to":"pool","amount_units":6,"reason":"brought_forward","deal_no":5}]}	2026-11-25 23:00:11.316599+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	b38a048f7ccb466335114fb98a075cdd9e7f8a0e77a9f1f423d49523b859e610
184	4f5d314d22a444aead06f2088706fba1	71	DeclarationMade	1	{"deal_no":5,"player":"Ben","declaration":"throw_up"}	2026-11-25 23:00:11.349875+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	9200197d75fa283f8bd8cb7480a568d52ddcddb83e8525be8e8d410f9381ce8b
185	4f5d314d22a444aead06f2088706fba1	72	DeclarationMade	1	{"deal_no":5,"player":"Cat","declaration":"throw_up"}	2026-11-25 23:00:11.355382+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	7e5e244d4171e1427b434a4fe821d12b5773eebcb67658f7dbade0e482f101f7
186	4f5d314d22a444aead06f2088706fba1	73	DeclarationMade	1	{"deal_no":5,"player":"Dan","declaration":"play"}	2026-11-25 23:00:11.392642+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	56f7a93e9fb82997f01af49c2a19f8a61e1d2095505464ce55098bee7b599bd3
187	4f5d314d22a444aead06f2088706fba1	74	DeclarationMade	1	{"deal_no":5,"player":"Ada","declaration":"play"}	2026-11-25 23:00:11.407195+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	bc82a9aa8684bcfbe8424a06a371afbb3a3ab01af4aeb63cdd926bf0bd2454f3
188	4f5d314d22a444aead06f2088706fba1	75	CardPlayed	1	{"deal_no":5,"player":"Dan","card":"10H","trick":1,"replay":false}	2026-11-25 23:00:11.455454+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	c74f23a4177356f1f30737261d8f6e08474a940c772ef2ace698189e4b26c536
189	4f5d314d22a444aead06f2088706fba1	76	CardPlayed	1	{"deal_no":5,"player":"Ada","card":"9S","trick":1,"replay":false}	2026-11-25 23:00:11.474465+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	898340c2ad9b0ab74610cfc6248ea4b94dc1a53e052e34a1a4ec625d45821695
190	4f5d314d22a444aead06f2088706fba1	77	TrickWon	1	{"deal_no":5,"trick":1,"winner":"Dan","cards":[["Dan","10H"],["Ada","9S"]],"replay":false}	2026-11-25 23:00:11.474465+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	b078cd9a385027b12ab700ce68408580e99a4a53661b2837a01171d0e3d5643f
191	4f5d314d22a444aead06f2088706fba1	78	CardPlayed	1	{"deal_no":5,"player":"Dan","card":"AC","trick":2,"replay":false}	2026-11-25 23:00:11.493366+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	931230940feb6b41507b50fb71df646153128c2d9c9be8c64d370173fadec3e2
192	4f5d314d22a444aead06f2088706fba1	79	CardPlayed	1	{"deal_no":5,"player":"Ada","card":"5C","trick":2,"replay":false}	2026-11-25 23:00:11.501975+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	d91e1d9b9362c24da2e7bb4466408307db8f654f3b2162c535d2abc9c7df56aa
193	4f5d314d22a444aead06f2088706fba1	80	TrickWon	1	{"deal_no":5,"trick":2,"winner":"Dan","cards":[["Dan","AC"],["Ada","5C"]],"replay":false}	2026-11-25 23:00:11.501975+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	e1556ee4677744491bd240fc329cf7544d876d7aef24c25e777ca0a08a82a7dd
194	4f5d314d22a444aead06f2088706fba1	81	CardPlayed	1	{"deal_no":5,"player":"Dan","card":"KS","trick":3,"replay":false}	2026-11-25 23:00:11.508188+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	6e74e73696c6a64fe3615314667710d15e015975269c93f18e2467ceba0d9fc1
195	4f5d314d22a444aead06f2088706fba1	82	CardPlayed	1	{"deal_no":5,"player":"Ada","card":"6D","trick":3,"replay":false}	2026-11-25 23:00:11.514295+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	134432af2f672444bc9a6c682533d2fed02e6f6d2e2a48768d1bedba5c3c596b
196	4f5d314d22a444aead06f2088706fba1	83	TrickWon	1	{"deal_no":5,"trick":3,"winner":"Dan","cards":[["Dan","KS"],["Ada","6D"]],"replay":false}	2026-11-25 23:00:11.514295+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	e86206ec208cc1a64689075fd89cf3da4a8adf802f91c355b9126f7901bafabb
197	4f5d314d22a444aead06f2088706fba1	84	DealSettled	1	{"deal_no":5,"outcome":"divided","pool_units":7,"loo_units":3,"shares":[{"trick":1,"winner":"Dan","amount_units":3,"paid_to":"Dan","stays_in_pool":null},{"trick":2,"winner":"Dan","amount_units":2,"paid_to":"Dan","stays_in_pool":null},{"trick":3,"winner":"Dan","amount_units":2,"paid_to":"Dan","stays_in_pool":null}],"looed":["Ada"],"carried_units":0,"next_fresh":false,"next_forced":null,"postings":[{"from":"pool","to":"Dan","amount_units":3,"reason":"trick","deal_no":5},{"from":"pool","to":"Dan","amount_units":2,"reason":"trick","deal_no":5},{"from":"pool","to":"Dan","amount_units":2,"reason":"trick","deal_no":5},{"from":"Ada","to":"next_pool","amount_units":3,"reason":"loo","deal_no":5,"loo":true}]}	2026-11-25 23:00:11.514295+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	8ac98a5a1ccba74158c530b2336269d7120d382e0e88d61848c7b97301eca28e
217	f65c7addebe04aecbb4d4228f4ecf2b6	4	DeclarationMade	1	{"deal_no":1,"player":"Cat","declaration":"throw_up"}	2026-11-25 23:00:11.732404+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	294ee45dce40e0041416cc6d47ee3e25c763afa4a0dfa23e13957ef797a89d8d
198	4f5d314d22a444aead06f2088706fba1	85	DealStarted	1	{"deal_no":6,"dealer":"Ben","kind":"hand","trump_card":"8C","dealt":["Cat","Dan","Ada","Ben"],"fresh":false,"forced":null,"miss":true,"redeal":false,"face_up":{},"postings":[{"from":"Ben","to":"pool","amount_units":1,"reason":"deal","deal_no":6},{"from":"next_pool","to":"pool","amount_units":3,"reason":"brought_forward","deal_no":6}]}	2026-11-25 23:00:11.525217+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	48db3ef3fbeb68acf157f125cbd43f1fa29dcd8865224d5fe18a6e8ed303c593
199	4f5d314d22a444aead06f2088706fba1	86	DeclarationMade	1	{"deal_no":6,"player":"Cat","declaration":"take_miss"}	2026-11-25 23:00:11.532468+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	e123badee0e5817fecc9d36a792b11007e18ea4ff7a78668741a80c65c176c0f
200	4f5d314d22a444aead06f2088706fba1	87	DeclarationMade	1	{"deal_no":6,"player":"Dan","declaration":"play"}	2026-11-25 23:00:11.542236+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	a757d2b2d143c8a3d54ea7bcffa4530fc033588d4f5aa1cead032192d1a44edb
201	4f5d314d22a444aead06f2088706fba1	88	DeclarationMade	1	{"deal_no":6,"player":"Ada","declaration":"throw_up"}	2026-11-25 23:00:11.549391+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	c18612ea4dd410c7cc99c6e3e0f27a37f259a5a30e460027320832d31cef096e
202	4f5d314d22a444aead06f2088706fba1	89	DeclarationMade	1	{"deal_no":6,"player":"Ben","declaration":"throw_up"}	2026-11-25 23:00:11.558022+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	472f3b68ba7129572a840c105f020579f9f03a620f21f97a8ace6228f852bf32
203	4f5d314d22a444aead06f2088706fba1	90	CardPlayed	1	{"deal_no":6,"player":"Cat","card":"AC","trick":1,"replay":false}	2026-11-25 23:00:11.570803+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	9390053d32aaee0e9ee74d908553a47b9f3d07481d54d63e09bb147fd8e92105
204	4f5d314d22a444aead06f2088706fba1	91	CardPlayed	1	{"deal_no":6,"player":"Dan","card":"5C","trick":1,"replay":false}	2026-11-25 23:00:11.577325+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	15fa9e70ef796d6fcda371d2454f2e05156bef52457f9b680d9d32bf06f21311
205	4f5d314d22a444aead06f2088706fba1	92	TrickWon	1	{"deal_no":6,"trick":1,"winner":"Cat","cards":[["Cat","AC"],["Dan","5C"]],"replay":false}	2026-11-25 23:00:11.577325+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	4168e5323c8131951bb8df5e4b278b8392be847e1f35278cc1e959296d4207d3
206	4f5d314d22a444aead06f2088706fba1	93	CardPlayed	1	{"deal_no":6,"player":"Cat","card":"JS","trick":2,"replay":false}	2026-11-25 23:00:11.585657+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	9005f2018834c4831ee23b4edd33b26fbc8d3d95f5e25b8a1a35edee5b884d85
207	4f5d314d22a444aead06f2088706fba1	94	CardPlayed	1	{"deal_no":6,"player":"Dan","card":"2D","trick":2,"replay":false}	2026-11-25 23:00:11.59007+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	42244a4d8bfe6d1b8153d5fc5501f5fd57e8001a8af28f6fbcb11db313c53e40
208	4f5d314d22a444aead06f2088706fba1	95	TrickWon	1	{"deal_no":6,"trick":2,"winner":"Cat","cards":[["Cat","JS"],["Dan","2D"]],"replay":false}	2026-11-25 23:00:11.59007+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	897b7158485d60497f039636bed66736888fdc7124d1d0b4e615f6d313de31bc
209	4f5d314d22a444aead06f2088706fba1	96	CardPlayed	1	{"deal_no":6,"player":"Cat","card":"QS","trick":3,"replay":false}	2026-11-25 23:00:11.597506+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	bac13cfde41034c47799c5921c2eae3dd41438108d35a669d0b8c957b02017fa
210	4f5d314d22a444aead06f2088706fba1	97	CardPlayed	1	{"deal_no":6,"player":"Dan","card":"JD","trick":3,"replay":false}	2026-11-25 23:00:11.606091+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	f0b05635b7f38728097b41214c0fed0dd9171d41648cc474e5c7d8800834babb
211	4f5d314d22a444aead06f2088706fba1	98	TrickWon	1	{"deal_no":6,"trick":3,"winner":"Cat","cards":[["Cat","QS"],["Dan","JD"]],"replay":false}	2026-11-25 23:00:11.606091+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	5e25c87f68fb440405a3b9c44c5c5361cd8aa15910c8aa1c36b881f7b1a04cfb
212	4f5d314d22a444aead06f2088706fba1	99	DealSettled	1	{"deal_no":6,"outcome":"divided","pool_units":4,"loo_units":3,"shares":[{"trick":1,"winner":"Cat","amount_units":2,"paid_to":"Cat","stays_in_pool":null},{"trick":2,"winner":"Cat","amount_units":1,"paid_to":"Cat","stays_in_pool":null},{"trick":3,"winner":"Cat","amount_units":1,"paid_to":"Cat","stays_in_pool":null}],"looed":["Dan"],"carried_units":0,"next_fresh":false,"next_forced":null,"postings":[{"from":"pool","to":"Cat","amount_units":2,"reason":"trick","deal_no":6},{"from":"pool","to":"Cat","amount_units":1,"reason":"trick","deal_no":6},{"from":"pool","to":"Cat","amount_units":1,"reason":"trick","deal_no":6},{"from":"Dan","to":"next_pool","amount_units":3,"reason":"loo","deal_no":6,"loo":true}]}	2026-11-25 23:00:11.606091+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	cc053ec63cf7b12cba9e21dc177868a7ef88a12ad50396ecf70c0063a043344e
213	4f5d314d22a444aead06f2088706fba1	100	SessionEnded	1	{"method":"divide-pool","postings":[{"from":"next_pool","to":"Cat","amount_units":1,"reason":"end_division"},{"from":"next_pool","to":"Dan","amount_units":1,"reason":"end_division"},{"from":"next_pool","to":"Ada","amount_units":1,"reason":"end_division"}]}	2026-11-25 23:00:11.611631+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	23d08966072cdde4a3c66ae692d926a169112c1daaca60280b18cbe6f8c9d99a
214	f65c7addebe04aecbb4d4228f4ecf2b6	1	SessionOpened	1	{"name": "generated", "players": ["Ada", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"], "first_dealer": "Ada", "rules": {"preset": "cassell", "stake": 3, "deal_price": 3, "fresh_deal_price": 3, "ante": 3, "loo": "limited", "loo_amount": 3, "loo_limit": null, "single_loo": 3, "loo_capped_at_pool": true, "fresh_pool": "antes", "lead_rule": "highest-card", "trump_after_trick": "highest", "ace_turned_up_king_leads": false, "miss_holder_leads": false, "club_law": false, "force_after_single": false, "dealer_stands_out_above": null, "last_before_dealer_bound": true, "deal_out_of_turn": "refuse", "penalties": "cassell", "variant": "three-card", "pack": 52}, "unit": "counter", "money_per_unit_minor": 60, "currency": "GBP", "members": {"Ada": "de4958b7d3674722b75f74d0cec7e903", "Ben": "539abcfd2ca041c7aea889bb94081643", "Cat": "b1a6f86d925840dba673e30c40d0077e", "Dan": "8ff62e5b25574e648f0055ab2659fe5d", "Eve": "8916158a41f64bf58060d0f00343a96b", "Fay": "99abd8eff8aa4ccb882426726702ee54", "Gus": "3e0ba1d0f2d54a3c9926ecc404e950e0"}}	2026-11-25 23:00:11.702983+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	5ec4e48912771147c7fe3bc857e121b1d70347a63de6d558edb0a76d63f95d59
215	f65c7addebe04aecbb4d4228f4ecf2b6	2	DealStarted	1	{"deal_no":1,"dealer":"Ada","kind":"hand","trump_card":"6S","dealt":["Ben","Cat","Dan","Eve","Fay","Gus","Ada"],"fresh":true,"forced":null,"miss":true,"redeal":false,"face_up":{},"postings":[{"from":"Ada","to":"pool","amount_units":3,"reason":"deal","deal_no":1},{"from":"Ben","to":"pool","amount_units":3,"reason":"ante","deal_no":1},{"from":"Cat","to":"pool","amount_units":3,"reason":"ante","deal_no":1},{"from":"Dan","to":"pool","amount_units":3,"reason":"ante","deal_no":1},{"from":"Eve","to":"pool","amount_units":3,"reason":"ante","deal_no":1},{"from":"Fay","to":"pool","amount_units":3,"reason":"ante","deal_no":1},{"from":"Gus","to":"pool","amount_units":3,"reason":"ante","deal_no":1}]}	2026-11-25 23:00:11.719756+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	beb6039ee43c22ef584d583d65cf383e1e2d78d98ce8822372626d0d656775f0
216	f65c7addebe04aecbb4d4228f4ecf2b6	3	DeclarationMade	1	{"deal_no":1,"player":"Ben","declaration":"throw_up"}	2026-11-25 23:00:11.725973+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	0931097e14ee3185642aa33e49024c18bdad00401e219f82db2d13b0b0e344b4
218	f65c7addebe04aecbb4d4228f4ecf2b6	5	DeclarationMade	1	{"deal_no":1,"player":"Dan","declaration":"throw_up"}	2026-11-25 23:00:11.74458+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	2ee7f756b491e3906c9157d662987a48743c6ab5ae98b150f1af5ecd6a9795aa
219	f65c7addebe04aecbb4d4228f4ecf2b6	6	DeclarationMade	1	{"deal_no":1,"player":"Eve","declaration":"play"}	2026-11-25 23:00:11.753423+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	c5ee3aa661a2b6337605870fd0fbcb639cdd20895ced2dded57c8ff2584f35b7
220	f65c7addebe04aecbb4d4228f4ecf2b6	7	DeclarationMade	1	{"deal_no":1,"player":"Fay","declaration":"play"}	2026-11-25 23:00:11.764867+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	fc6b1e32a5cb6591f04fcfeed9334421905ff4ff0a52285490de48f1336efb71
221	f65c7addebe04aecbb4d4228f4ecf2b6	8	DeclarationMade	1	{"deal_no":1,"player":"Gus","declaration":"throw_up"}	2026-11-25 23:00:11.768682+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	d21ffb6c5e819dc721cf532e70d9fe64e623d54bae575c3d4e058b6d327b9078
222	f65c7addebe04aecbb4d4228f4ecf2b6	9	DeclarationMade	1	{"deal_no":1,"player":"Ada","declaration":"throw_up"}	2026-11-25 23:00:11.772675+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	0e77d3752bdce3d77068727be47bda4237ab8904472bff16e0109797db44cf17
223	f65c7addebe04aecbb4d4228f4ecf2b6	10	CardPlayed	1	{"deal_no":1,"player":"Eve","card":"2S","trick":1,"replay":false}	2026-11-25 23:00:11.779753+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	62e1c9ff7e9b8888e5a79d3058dca8616cc57709a59c792fe87fa1313edacb10
224	f65c7addebe04aecbb4d4228f4ecf2b6	11	CardPlayed	1	{"deal_no":1,"player":"Fay","card":"8C","trick":1,"replay":false}	2026-11-25 23:00:11.78589+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	55d312a4adb9149cecf19702013b13b80244720d0c906898a1e9b7978a7ccead
225	f65c7addebe04aecbb4d4228f4ecf2b6	12	TrickWon	1	{"deal_no":1,"trick":1,"winner":"Eve","cards":[["Eve","2S"],["Fay","8C"]],"replay":false}	2026-11-25 23:00:11.78589+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	f5bda7ad6529bb8b6d5d030c6f3588959b992d7aea184a9149dea090038c0bac
226	f65c7addebe04aecbb4d4228f4ecf2b6	13	CardPlayed	1	{"deal_no":1,"player":"Eve","card":"8D","trick":2,"replay":false}	2026-11-25 23:00:11.792551+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	556c0c6eac6f6ea8d3fb46e77560c44217f16b272dcbd3d44aef894ac6687d91
227	f65c7addebe04aecbb4d4228f4ecf2b6	14	CardPlayed	1	{"deal_no":1,"player":"Fay","card":"2H","trick":2,"replay":false}	2026-11-25 23:00:11.800755+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	d6072b37ae280398887bbea43dd5721f37b4fb5759f59bb9742cc5a6d68bc41c
228	f65c7addebe04aecbb4d4228f4ecf2b6	15	TrickWon	1	{"deal_no":1,"trick":2,"winner":"Eve","cards":[["Eve","8D"],["Fay","2H"]],"replay":false}	2026-11-25 23:00:11.800755+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	14b90a67d91a7fd36db4fd8162f35c730590d9d19b27c6211dd0a4585cb42405
229	f65c7addebe04aecbb4d4228f4ecf2b6	16	CardPlayed	1	{"deal_no":1,"player":"Eve","card":"AD","trick":3,"replay":false}	2026-11-25 23:00:11.8095+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	c2da703eff1231bb0df0380342be439456bcc0ffdfdf562c764ffead14ab04f8
230	f65c7addebe04aecbb4d4228f4ecf2b6	17	CardPlayed	1	{"deal_no":1,"player":"Fay","card":"JH","trick":3,"replay":false}	2026-11-25 23:00:11.814391+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	b2e7a559cfc268f218604e091b1b785e27b3c973f7dc188ec5695f938b15027d
231	f65c7addebe04aecbb4d4228f4ecf2b6	18	TrickWon	1	{"deal_no":1,"trick":3,"winner":"Eve","cards":[["Eve","AD"],["Fay","JH"]],"replay":false}	2026-11-25 23:00:11.814391+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	8029cfa6a19f54b808cc65bc4da219c3d66688ab60dc4b032f908ecb42e8110a
232	f65c7addebe04aecbb4d4228f4ecf2b6	19	DealSettled	1	{"deal_no":1,"outcome":"divided","pool_units":21,"loo_units":3,"shares":[{"trick":1,"winner":"Eve","amount_units":7,"paid_to":"Eve","stays_in_pool":null},{"trick":2,"winner":"Eve","amount_units":7,"paid_to":"Eve","stays_in_pool":null},{"trick":3,"winner":"Eve","amount_units":7,"paid_to":"Eve","stays_in_pool":null}],"looed":["Fay"],"carried_units":0,"next_fresh":false,"next_forced":null,"postings":[{"from":"pool","to":"Eve","amount_units":7,"reason":"trick","deal_no":1},{"from":"pool","to":"Eve","amount_units":7,"reason":"trick","deal_no":1},{"from":"pool","to":"Eve","amount_units":7,"reason":"trick","deal_no":1},{"from":"Fay","to":"next_pool","amount_units":3,"reason":"loo","deal_no":1,"loo":true}]}	2026-11-25 23:00:11.814391+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	c4f40ae0820bf02677e60c0fd8baee723125e580da6a331c95f43afe3f268266
233	f65c7addebe04aecbb4d4228f4ecf2b6	20	DealStarted	1	{"deal_no":2,"dealer":"Ben","kind":"hand","trump_card":"JS","dealt":["Cat","Dan","Eve","Fay","Gus","Ada","Ben"],"fresh":false,"forced":null,"miss":true,"redeal":false,"face_up":{},"postings":[{"from":"Ben","to":"pool","amount_units":3,"reason":"deal","deal_no":2},{"from":"next_pool","to":"pool","amount_units":3,"reason":"brought_forward","deal_no":2}]}	2026-11-25 23:00:11.821968+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	fe8dabd88b973894f6e70e7f857b521816a25b7f3201a1b83416eff562805de2
234	f65c7addebe04aecbb4d4228f4ecf2b6	21	DeclarationMade	1	{"deal_no":2,"player":"Cat","declaration":"throw_up"}	2026-11-25 23:00:11.82906+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	29bd95f19053a0eb0d17450b49f9add3717b060f2d8af13114679b34f7231102
235	f65c7addebe04aecbb4d4228f4ecf2b6	22	PenaltyImposed	1	{"deal_no":2,"player":"Dan","offence":"looked-at-miss","law":"Cassell, Looed: looking at the miss","amount_units":null,"destination":"next_pool-at-settlement","kind":"loo","forfeits_winnings":false,"throw_up":false,"redeal":false,"replay":"none","detected":false,"evidence":{},"postings":[],"stage":"pre-play","leaves_play":false}	2026-11-25 23:00:11.840208+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	400994f51a18315925b109e764657872100914439ae42f3c334a28f0784362ab
236	f65c7addebe04aecbb4d4228f4ecf2b6	23	DeclarationMade	1	{"deal_no":2,"player":"Dan","declaration":"throw_up"}	2026-11-25 23:00:11.849447+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	0d5314cbffa9cb086a040f2a7822f94fc609e780face5daa5dd6e2927de71b2b
237	f65c7addebe04aecbb4d4228f4ecf2b6	24	DeclarationMade	1	{"deal_no":2,"player":"Eve","declaration":"take_miss"}	2026-11-25 23:00:11.852266+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	b7aa17c4344177ce26da8a99c9f7996635099067b59a50fa90af860869b1f64a
238	f65c7addebe04aecbb4d4228f4ecf2b6	25	DeclarationMade	1	{"deal_no":2,"player":"Fay","declaration":"play"}	2026-11-25 23:00:11.862968+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	80c771ca09c725230440f166c45ffb5924ee47071a5ef8188d7c3b97bf685dd9
239	f65c7addebe04aecbb4d4228f4ecf2b6	26	DeclarationMade	1	{"deal_no":2,"player":"Gus","declaration":"throw_up"}	2026-11-25 23:00:11.869942+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	3850b193314b1af44376e4078aa1748be3b05449b226efb612240b3bf7bb823a
240	f65c7addebe04aecbb4d4228f4ecf2b6	27	DeclarationMade	1	{"deal_no":2,"player":"Ada","declaration":"play"}	2026-11-25 23:00:11.876823+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	3c2c5c02d8e49d250e030ed76cbb9498e7f2cd962685ada61d58f745b0d0f75e
241	f65c7addebe04aecbb4d4228f4ecf2b6	28	DeclarationMade	1	{"deal_no":2,"player":"Ben","declaration":"throw_up"}	2026-11-25 23:00:11.886078+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	a37e728505f13c627d95d223b0f4cfa0f295414af0cf4305e74e2d37a358b998
242	f65c7addebe04aecbb4d4228f4ecf2b6	29	CardPlayed	1	{"deal_no":2,"player":"Eve","card":"AD","trick":1,"replay":false}	2026-11-25 23:00:11.890509+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	21e4013c0fab9827e027bac60df1c322c81c0e443f86391b3bb6430a3734a485
243	f65c7addebe04aecbb4d4228f4ecf2b6	30	PenaltyImposed	1	{"deal_no":2,"player":"Fay","offence":"looked-at-own-cards","law":"Cassell, Looed: looking at his own cards out of turn","amount_units":3,"destination":"next_pool","kind":"loo","forfeits_winnings":false,"throw_up":false,"redeal":false,"replay":"none","detected":false,"evidence":{},"postings":[{"from":"Fay","to":"next_pool","amount_units":3,"reason":"penalty","offence":"looked-at-own-cards","deal_no":2,"loo":true}],"stage":"pre-play","leaves_play":false}	2026-11-25 23:00:11.900076+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	fe7c6cc5bcd17d5c9d72d25c91268a0a384f52c393a45f64b3d19570e92876c6
244	f65c7addebe04aecbb4d4228f4ecf2b6	31	CardPlayed	1	{"deal_no":2,"player":"Fay","card":"9H","trick":1,"replay":false}	2026-11-25 23:00:11.91005+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	c6ae169c64f9162045b278dc62b110f9e108aa6e1b92edaa8a02eb7e2831023a
245	f65c7addebe04aecbb4d4228f4ecf2b6	32	CardPlayed	1	{"deal_no":2,"player":"Ada","card":"QD","trick":1,"replay":false}	2026-11-25 23:00:11.913928+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	1e858f9910f5a001cc62b9ed6318fc744598215003b09f06bca4b5ea2552cd9d
246	f65c7addebe04aecbb4d4228f4ecf2b6	33	TrickWon	1	{"deal_no":2,"trick":1,"winner":"Eve","cards":[["Eve","AD"],["Fay","9H"],["Ada","QD"]],"replay":false}	2026-11-25 23:00:11.913928+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	5c6e420124bcf3c2e56680526d575af3a362d27ed8e5784ebdb193c4752e4660
247	f65c7addebe04aecbb4d4228f4ecf2b6	34	CardPlayed	1	{"deal_no":2,"player":"Eve","card":"5D","trick":2,"replay":false}	2026-11-25 23:00:11.92601+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	bdf1e46e53431136dfd7cfad2320de4dbf78702f1909ece912bd5b3b3ef16492
248	f65c7addebe04aecbb4d4228f4ecf2b6	35	CardPlayed	1	{"deal_no":2,"player":"Fay","card":"5H","trick":2,"replay":false}	2026-11-25 23:00:11.928977+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	9ad6ff15b73d3d8419bb530ae48d61c3d82443369a05c0ad83c1cfc58c32e928
249	f65c7addebe04aecbb4d4228f4ecf2b6	36	CardPlayed	1	{"deal_no":2,"player":"Ada","card":"7H","trick":2,"replay":false}	2026-11-25 23:00:11.935621+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	091534cb7e4eabf143491039a4e19092de6f496962df9fbf8ee7915b59d27ceb
250	f65c7addebe04aecbb4d4228f4ecf2b6	37	TrickWon	1	{"deal_no":2,"trick":2,"winner":"Eve","cards":[["Eve","5D"],["Fay","5H"],["Ada","7H"]],"replay":false}	2026-11-25 23:00:11.935621+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	21e7c3b19490e6eaf3537c70f86af1599dbb0a0592292f1a312c2ad8cedd8b0a
251	f65c7addebe04aecbb4d4228f4ecf2b6	38	CardPlayed	1	{"deal_no":2,"player":"Eve","card":"7C","trick":3,"replay":false}	2026-11-25 23:00:11.939394+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	ca21cfb0d76dce026e8d328570fe82156a8935cb94a4ed4a0c6e43ae52e21e59
252	f65c7addebe04aecbb4d4228f4ecf2b6	39	CardPlayed	1	{"deal_no":2,"player":"Fay","card":"JH","trick":3,"replay":false}	2026-11-25 23:00:11.950008+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	b9c23256cd3821070f5bcfb9c9bcd2d941188457cab187b9d65036db42c17e40
253	f65c7addebe04aecbb4d4228f4ecf2b6	40	CardPlayed	1	{"deal_no":2,"player":"Ada","card":"JC","trick":3,"replay":false}	2026-11-25 23:00:11.95862+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	e5f0c5f885d292806b1d85f578f52ef902f96c907ce6f9baab627562857a1c58
254	f65c7addebe04aecbb4d4228f4ecf2b6	41	TrickWon	1	{"deal_no":2,"trick":3,"winner":"Ada","cards":[["Eve","7C"],["Fay","JH"],["Ada","JC"]],"replay":false}	2026-11-25 23:00:11.95862+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	bf3780dfd30c7c11096b37289cd8099e4dc56a3c611ee68759cd41786ceb2631
255	f65c7addebe04aecbb4d4228f4ecf2b6	42	DealSettled	1	{"deal_no":2,"outcome":"divided","pool_units":6,"loo_units":3,"shares":[{"trick":1,"winner":"Eve","amount_units":2,"paid_to":"Eve","stays_in_pool":null},{"trick":2,"winner":"Eve","amount_units":2,"paid_to":"Eve","stays_in_pool":null},{"trick":3,"winner":"Ada","amount_units":2,"paid_to":"Ada","stays_in_pool":null}],"looed":["Fay"],"carried_units":0,"next_fresh":false,"next_forced":null,"postings":[{"from":"pool","to":"Eve","amount_units":2,"reason":"trick","deal_no":2},{"from":"pool","to":"Eve","amount_units":2,"reason":"trick","deal_no":2},{"from":"pool","to":"Ada","amount_units":2,"reason":"trick","deal_no":2},{"from":"Fay","to":"next_pool","amount_units":3,"reason":"loo","deal_no":2,"loo":true},{"from":"Dan","to":"next_pool","amount_units":3,"reason":"penalty","offence":"looked-at-miss","deal_no":2,"loo":true}]}	2026-11-25 23:00:11.95862+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	ccfb7b8264e1cf095263e9e02a8998564f508c998a64e049d1baea877ab9141a
256	f65c7addebe04aecbb4d4228f4ecf2b6	43	DealStarted	1	{"deal_no":3,"dealer":"Cat","kind":"hand","trump_card":"4H","dealt":["Dan","Eve","Fay","Gus","Ada","Ben","Cat"],"fresh":false,"forced":null,"miss":true,"redeal":false,"face_up":{},"postings":[{"from":"Cat","to":"pool","amount_units":3,"reason":"deal","deal_no":3},{"from":"next_pool","to":"pool","amount_units":9,"reason":"brought_forward","deal_no":3}]}	2026-11-25 23:00:11.966086+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	53c50cbc55c0703755565229932b24df416fa186ce2e2215b15793c5bed94d5d
257	f65c7addebe04aecbb4d4228f4ecf2b6	44	DeclarationMade	1	{"deal_no":3,"player":"Dan","declaration":"throw_up"}	2026-11-25 23:00:11.980482+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	bf06d5b4429fb482e5fedcebd610c239e9354d44f2aac2b968d758a739bfd8d3
258	f65c7addebe04aecbb4d4228f4ecf2b6	45	DeclarationMade	1	{"deal_no":3,"player":"Eve","declaration":"throw_up"}	2026-11-25 23:00:11.985336+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	c91d984a0170d7d6b5339e3302f596cec4baafe0c91760b9b6070e39b8753427
259	f65c7addebe04aecbb4d4228f4ecf2b6	46	DeclarationMade	1	{"deal_no":3,"player":"Fay","declaration":"throw_up"}	2026-11-25 23:00:11.986767+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	94af7b54c196344cc87f01ae4d481046f57f3d9e902873a57f950b14875e5a9a
260	f65c7addebe04aecbb4d4228f4ecf2b6	47	DeclarationMade	1	{"deal_no":3,"player":"Gus","declaration":"throw_up"}	2026-11-25 23:00:11.989958+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	5aa0e82905d3a3901e58d7bfd910bcb5177f92fff899c3cc148b0baeddad8e48
261	f65c7addebe04aecbb4d4228f4ecf2b6	48	DeclarationMade	1	{"deal_no":3,"player":"Ada","declaration":"throw_up"}	2026-11-25 23:00:11.998309+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	5bf3007fcf8d441f09b2c29627163dd9d85057389b55fff5094c1f94453fbd59
262	f65c7addebe04aecbb4d4228f4ecf2b6	49	DeclarationMade	1	{"deal_no":3,"player":"Ben","declaration":"play"}	2026-11-25 23:00:12.001769+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	7fa32832739b659778183e4af2d2a0bf633c9b63af42b17e026ad6b34f096515
263	f65c7addebe04aecbb4d4228f4ecf2b6	50	DeclarationMade	1	{"deal_no":3,"player":"Cat","declaration":"play_miss_for_pool"}	2026-11-25 23:00:12.013865+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	0ff6f48cbc517eb207e5a6ac94536d1e7e5b4a02e8a49cb4865d82f5d461782e
264	f65c7addebe04aecbb4d4228f4ecf2b6	51	CardPlayed	1	{"deal_no":3,"player":"Ben","card":"QC","trick":1,"replay":false}	2026-11-25 23:00:12.022688+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	17f641c27760cc28477e2c61c1be12fd1eb4ab1d5af689b46bc349e1a4433cde
265	f65c7addebe04aecbb4d4228f4ecf2b6	52	CardPlayed	1	{"deal_no":3,"player":"Cat","card":"AC","trick":1,"replay":false}	2026-11-25 23:00:12.033627+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	69c4f6d9b72787b2e1ed05a1c9da1791b03d3208c0938420865404730c39bd72
266	f65c7addebe04aecbb4d4228f4ecf2b6	53	TrickWon	1	{"deal_no":3,"trick":1,"winner":"Cat","cards":[["Ben","QC"],["Cat","AC"]],"replay":false}	2026-11-25 23:00:12.033627+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	40e60dac76b7fdc588dabc6e7f9787d00a35cc5b99bc51dfc30c5bcf190118d5
267	f65c7addebe04aecbb4d4228f4ecf2b6	54	CardPlayed	1	{"deal_no":3,"player":"Cat","card":"7D","trick":2,"replay":false}	2026-11-25 23:00:12.042168+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	8d3402acb822fb0dc4dde334bb4bac87d29b84bf6a9aec5cca4e36a363ebb68a
268	f65c7addebe04aecbb4d4228f4ecf2b6	55	CardPlayed	1	{"deal_no":3,"player":"Ben","card":"5D","trick":2,"replay":false}	2026-11-25 23:00:12.044962+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	df9247fca6f480078a018173a7496b569973c7dedbe581d0ecfeced82a37f5da
269	f65c7addebe04aecbb4d4228f4ecf2b6	56	TrickWon	1	{"deal_no":3,"trick":2,"winner":"Cat","cards":[["Cat","7D"],["Ben","5D"]],"replay":false}	2026-11-25 23:00:12.044962+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	d22f5e2446a9226b4df564f57086f314abd61904e0c228d961a7af0c99bea6e1
270	f65c7addebe04aecbb4d4228f4ecf2b6	57	CardPlayed	1	{"deal_no":3,"player":"Cat","card":"7S","trick":3,"replay":false}	2026-11-25 23:00:12.049099+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	4bb743477b20daef70bd16403149f4d321be3d831157819efcecb4231065771b
271	f65c7addebe04aecbb4d4228f4ecf2b6	58	CardPlayed	1	{"deal_no":3,"player":"Ben","card":"KS","trick":3,"replay":false}	2026-11-25 23:00:12.054013+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	73ffc0355b3abe0636b7a4fd1510435249d269e505254b7af6d4827a1c876166
272	f65c7addebe04aecbb4d4228f4ecf2b6	59	BreachDetected	1	{"deal_no":3,"player":"Ben","rule":"lead-highest-card","trick":1,"card":"QC","held":["QC","5D","KS"],"detail":"held QC, 5D, KS and led QC","replay":false}	2026-11-25 23:00:12.054013+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	71bb3f38d3a074f7031947344be26a3af1321f075190dc59d1801c698d603493
273	f65c7addebe04aecbb4d4228f4ecf2b6	60	PenaltyImposed	1	{"deal_no":3,"player":"Ben","offence":"lead-rule","law":"Cassell: the elder hand plays his highest trump, or his highest card","amount_units":3,"destination":"next_pool","kind":"loo","forfeits_winnings":false,"throw_up":false,"redeal":false,"replay":"none","detected":true,"evidence":{"player":"Ben","rule":"lead-highest-card","trick":1,"card":"QC","held":["QC","5D","KS"],"detail":"held QC, 5D, KS and led QC"},"postings":[{"from":"Ben","to":"next_pool","amount_units":3,"reason":"penalty","offence":"lead-rule","deal_no":3,"loo":true}],"stage":"in-play","leaves_play":false}	2026-11-25 23:00:12.054013+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	b2f4f384da96a5bf171c9e52e56bd451d517d6ba24fb644898df72590a010c2b
274	f65c7addebe04aecbb4d4228f4ecf2b6	61	TrickWon	1	{"deal_no":3,"trick":3,"winner":"Ben","cards":[["Cat","7S"],["Ben","KS"]],"replay":false}	2026-11-25 23:00:12.054013+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	af685444a131c2c6ecbdb127e72034f8381226802d3ea9498c9b6516a20914df
275	f65c7addebe04aecbb4d4228f4ecf2b6	62	DealSettled	1	{"deal_no":3,"outcome":"divided","pool_units":12,"loo_units":3,"shares":[{"trick":1,"winner":"Cat","amount_units":4,"paid_to":null,"stays_in_pool":"miss-for-pool"},{"trick":2,"winner":"Cat","amount_units":4,"paid_to":null,"stays_in_pool":"miss-for-pool"},{"trick":3,"winner":"Ben","amount_units":4,"paid_to":"Ben","stays_in_pool":null}],"looed":[],"carried_units":8,"next_fresh":false,"next_forced":null,"postings":[{"from":"pool","to":"Ben","amount_units":4,"reason":"trick","deal_no":3},{"from":"pool","to":"next_pool","amount_units":8,"reason":"carried_forward","deal_no":3}]}	2026-11-25 23:00:12.054013+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	3cb214e010e9c2167988677917c0934cafe0f2861dc0d401315224999e6549d6
276	f65c7addebe04aecbb4d4228f4ecf2b6	63	DealStarted	1	{"deal_no":4,"dealer":"Dan","kind":"hand","trump_card":"3C","dealt":["Eve","Fay","Gus","Ada","Ben","Cat","Dan"],"fresh":false,"forced":null,"miss":true,"redeal":false,"face_up":{},"postings":[{"from":"Dan","to":"pool","amount_units":3,"reason":"deal","deal_no":4},{"from":"next_pool","to":"pool","amount_units":11,"reason":"brought_forward","deal_no":4}]}	2026-11-25 23:00:12.060168+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	99a34d9e9c960ec8ff5750f96dac896300f6e7dc7be4d76fb9d9c2d3a72e3e95
277	f65c7addebe04aecbb4d4228f4ecf2b6	64	DeclarationMade	1	{"deal_no":4,"player":"Eve","declaration":"play"}	2026-11-25 23:00:12.065838+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	33551887c1674a16af76603ae4d3cdaf74d0fa276274ee072fb7e8729a156623
278	f65c7addebe04aecbb4d4228f4ecf2b6	65	DeclarationMade	1	{"deal_no":4,"player":"Fay","declaration":"play"}	2026-11-25 23:00:12.067315+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	062b709215ba27eba144e9b1b28430b2ee2ff0b33317e5f1d53d9b99ca61d5f2
279	f65c7addebe04aecbb4d4228f4ecf2b6	66	DeclarationMade	1	{"deal_no":4,"player":"Gus","declaration":"play"}	2026-11-25 23:00:12.073824+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	390a7277b96989f2639e472eb4a732c1464e9e3bc55506c6d31c9f2610f3ea6d
280	f65c7addebe04aecbb4d4228f4ecf2b6	67	DeclarationMade	1	{"deal_no":4,"player":"Ada","declaration":"throw_up"}	2026-11-25 23:00:12.075567+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	b11976029aed98176fae4d03dc74d896f9d8d1acee4fac3b790f053b74bd8b1c
281	f65c7addebe04aecbb4d4228f4ecf2b6	68	DeclarationMade	1	{"deal_no":4,"player":"Ben","declaration":"throw_up"}	2026-11-25 23:00:12.080143+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	ad17bd7de741f721d13ad98cdee849ce60b3ffd79cf72fddd986f9eef6c6c4fc
282	f65c7addebe04aecbb4d4228f4ecf2b6	69	DeclarationMade	1	{"deal_no":4,"player":"Cat","declaration":"throw_up"}	2026-11-25 23:00:12.090646+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	74ef5c86091175a1a2e4d550f9e0510b6f625b6d7ce543f664f9985bd63931ea
283	f65c7addebe04aecbb4d4228f4ecf2b6	70	DeclarationMade	1	{"deal_no":4,"player":"Dan","declaration":"throw_up"}	2026-11-25 23:00:12.093938+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	f248a69c5551b24ae37de3306e523ed1f4a3c307becb6043047fc08586d320c0
284	f65c7addebe04aecbb4d4228f4ecf2b6	71	TrickWon	1	{"deal_no":4,"trick":1,"winner":"Eve","cards":[],"replay":false}	2026-11-25 23:00:12.105577+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	1b1e76a30e67d0e9df30af7a44806b27c5c2ddfc3025f433c901dd7135a0b2ca
285	f65c7addebe04aecbb4d4228f4ecf2b6	72	TrickWon	1	{"deal_no":4,"trick":2,"winner":"Fay","cards":[],"replay":false}	2026-11-25 23:00:12.109635+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	f0171aa629e55cb827a1cbb792e1039a0e9e7091a67a1b2131c7b06866bedb28
286	f65c7addebe04aecbb4d4228f4ecf2b6	73	TrickWon	1	{"deal_no":4,"trick":3,"winner":"Gus","cards":[],"replay":false}	2026-11-25 23:00:12.111834+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	7f3132f1d99e6e95487f19c86622251e2a13909581fd4f183304a3f01e491748
287	f65c7addebe04aecbb4d4228f4ecf2b6	74	DealSettled	1	{"deal_no":4,"outcome":"divided","pool_units":14,"loo_units":3,"shares":[{"trick":1,"winner":"Eve","amount_units":5,"paid_to":"Eve","stays_in_pool":null},{"trick":2,"winner":"Fay","amount_units":5,"paid_to":"Fay","stays_in_pool":null},{"trick":3,"winner":"Gus","amount_units":4,"paid_to":"Gus","stays_in_pool":null}],"looed":[],"carried_units":0,"next_fresh":true,"next_forced":null,"postings":[{"from":"pool","to":"Eve","amount_units":5,"reason":"trick","deal_no":4},{"from":"pool","to":"Fay","amount_units":5,"reason":"trick","deal_no":4},{"from":"pool","to":"Gus","amount_units":4,"reason":"trick","deal_no":4}]}	2026-11-25 23:00:12.111834+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	8e695dbfc2bdb275fdc38721e0e45ced848d703807e7fa231dc11fa0e01218b5
288	f65c7addebe04aecbb4d4228f4ecf2b6	75	DealStarted	1	{"deal_no":5,"dealer":"Eve","kind":"hand","trump_card":"AS","dealt":["Fay","Gus","Ada","Ben","Cat","Dan","Eve"],"fresh":true,"forced":null,"miss":true,"redeal":false,"face_up":{},"postings":[{"from":"Eve","to":"pool","amount_units":3,"reason":"deal","deal_no":5},{"from":"Ada","to":"pool","amount_units":3,"reason":"ante","deal_no":5},{"from":"Ben","to":"pool","amount_units":3,"reason":"ante","deal_no":5},{"from":"Cat","to":"pool","amount_units":3,"reason":"ante","deal_no":5},{"from":"Dan","to":"pool","amount_units":3,"reason":"ante","deal_no":5},{"from":"Fay","to":"pool","amount_units":3,"reason":"ante","deal_no":5},{"from":"Gus","to":"pool","amount_units":3,"reason":"ante","deal_no":5}]}	2026-11-25 23:00:12.117447+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	26d5517b59af28c17165f3cfafb46018fc86ecac228626a8fd42dd3fe1d6686c
289	f65c7addebe04aecbb4d4228f4ecf2b6	76	DeclarationMade	1	{"deal_no":5,"player":"Fay","declaration":"throw_up"}	2026-11-25 23:00:12.121759+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	2582211114b4fd585a6feb8c82d5cb6ec8252a4993674e1b80c21cb9f6a5e188
290	f65c7addebe04aecbb4d4228f4ecf2b6	77	DeclarationMade	1	{"deal_no":5,"player":"Gus","declaration":"play"}	2026-11-25 23:00:12.124749+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	8a742e32db54db3f44bbf09c42996f667208673e70b76c087e7ac13d39c6489d
291	f65c7addebe04aecbb4d4228f4ecf2b6	78	DeclarationMade	1	{"deal_no":5,"player":"Ada","declaration":"take_miss"}	2026-11-25 23:00:12.132083+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	2b0dc6c53c288572297ad5738c452590e62b59613484dbe7e77c55ea9b1858eb
292	f65c7addebe04aecbb4d4228f4ecf2b6	79	DeclarationMade	1	{"deal_no":5,"player":"Ben","declaration":"throw_up"}	2026-11-25 23:00:12.134504+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	04fa972d4db7be1b687c382c11c5adb401b31f62dc56cc389cc80e55aba0840a
293	f65c7addebe04aecbb4d4228f4ecf2b6	80	DeclarationMade	1	{"deal_no":5,"player":"Cat","declaration":"play"}	2026-11-25 23:00:12.146782+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	20cbab2f5f4cd449e1f33b2016894de4992d13f9aaeef6b3c5bbdd23e2a9108d
294	f65c7addebe04aecbb4d4228f4ecf2b6	81	DeclarationMade	1	{"deal_no":5,"player":"Dan","declaration":"throw_up"}	2026-11-25 23:00:12.149153+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	f2a50529853b9759e1be3a22144646719fae080c7f57f491c7c33a18eb611443
295	f65c7addebe04aecbb4d4228f4ecf2b6	82	PenaltyImposed	1	{"deal_no":5,"player":"Eve","offence":"misdeal","law":"Cassell, Mis-deal; Looed: breaking any law of the game (misdeal)","amount_units":null,"destination":"next_pool-at-settlement","kind":"loo","forfeits_winnings":false,"throw_up":false,"redeal":true,"replay":"none","detected":false,"evidence":{},"postings":[],"stage":"pre-play","leaves_play":false}	2026-11-25 23:00:12.157988+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	d68edd983e00b7321fcd866bfc222647350754f5ff656510fcafae9fb1a1e46f
296	f65c7addebe04aecbb4d4228f4ecf2b6	83	DealStarted	1	{"deal_no":5,"dealer":"Eve","kind":"hand","trump_card":"AD","dealt":["Fay","Gus","Ada","Ben","Cat","Dan","Eve"],"fresh":true,"forced":null,"miss":true,"redeal":true,"face_up":{},"postings":[]}	2026-11-25 23:00:12.161788+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	7f33b1584a4b114c96379c7a87238822082f9dd5d5971bcf7bf8a813e803646d
297	f65c7addebe04aecbb4d4228f4ecf2b6	84	DeclarationMade	1	{"deal_no":5,"player":"Fay","declaration":"play"}	2026-11-25 23:00:12.165455+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	6bd1d88cf0e20a2c0db12f66a5350de4251bfa84238d4a7398b548b54e80acec
298	f65c7addebe04aecbb4d4228f4ecf2b6	85	DeclarationMade	1	{"deal_no":5,"player":"Gus","declaration":"throw_up"}	2026-11-25 23:00:12.169162+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	d568daf2d727662649bb8855fab9354251d5da80450ccabc72be8233faeca2ce
299	f65c7addebe04aecbb4d4228f4ecf2b6	86	DeclarationMade	1	{"deal_no":5,"player":"Ada","declaration":"play"}	2026-11-25 23:00:12.173853+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	0e636dd798bdc46c5011d23ae144d1600cc9c9895b2b3ac6c247267f6397decf
300	f65c7addebe04aecbb4d4228f4ecf2b6	87	DeclarationMade	1	{"deal_no":5,"player":"Ben","declaration":"take_miss"}	2026-11-25 23:00:12.17724+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	da497ad2e0028954a43122a917509ea085ae590c22a16b023916b8a01b636331
301	f65c7addebe04aecbb4d4228f4ecf2b6	88	DeclarationMade	1	{"deal_no":5,"player":"Cat","declaration":"play"}	2026-11-25 23:00:12.189994+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	c669b4b45262ec3af4bcf4bbabf4a1c9fb9909b72d0dd5807aed1272e1a075ca
302	f65c7addebe04aecbb4d4228f4ecf2b6	89	DeclarationMade	1	{"deal_no":5,"player":"Dan","declaration":"throw_up"}	2026-11-25 23:00:12.197509+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	8c4c93a1c0b076c5ecdafd9658dfc0b14890268cf37d91a68daeddd223f5632a
303	f65c7addebe04aecbb4d4228f4ecf2b6	90	DeclarationMade	1	{"deal_no":5,"player":"Eve","declaration":"throw_up"}	2026-11-25 23:00:12.202473+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	46e1fea20bf547ea3473f800629d3a77b3ce517b54929ce1d44a641e2c8636fe
304	f65c7addebe04aecbb4d4228f4ecf2b6	91	CardPlayed	1	{"deal_no":5,"player":"Fay","card":"6D","trick":1,"replay":false}	2026-11-25 23:00:12.205356+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	709e084aee5f4d980a0deaef15c27f65ab5870702e528287015a1d293132ab33
305	f65c7addebe04aecbb4d4228f4ecf2b6	92	CardPlayed	1	{"deal_no":5,"player":"Ada","card":"JH","trick":1,"replay":false}	2026-11-25 23:00:12.21527+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	a3927ead6fdab042f47c62484229120804ea3b9da14028cc69b64e116920f3be
306	f65c7addebe04aecbb4d4228f4ecf2b6	93	CardPlayed	1	{"deal_no":5,"player":"Ben","card":"4D","trick":1,"replay":false}	2026-11-25 23:00:12.221752+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	a54315c38b4b163de5719f353974021f075fa53997d57f93bc24a1d775ec52ea
307	f65c7addebe04aecbb4d4228f4ecf2b6	94	CardPlayed	1	{"deal_no":5,"player":"Cat","card":"KC","trick":1,"replay":false}	2026-11-25 23:00:12.230134+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	69a63315b51b784632eaaa757f350a35b880cee533bb161808ec2983224f3155
308	f65c7addebe04aecbb4d4228f4ecf2b6	95	TrickWon	1	{"deal_no":5,"trick":1,"winner":"Fay","cards":[["Fay","6D"],["Ada","JH"],["Ben","4D"],["Cat","KC"]],"replay":false}	2026-11-25 23:00:12.230134+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	0186ae158b7c69ec6ed84c99984f9cc5060e9fcad8ba8ab9abd121dbad412f05
309	f65c7addebe04aecbb4d4228f4ecf2b6	96	CardPlayed	1	{"deal_no":5,"player":"Fay","card":"6S","trick":2,"replay":false}	2026-11-25 23:00:12.236581+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	a1d025c1e36939ed980946961e6f1598b075280063b8d13bc5d3d81743cc7c9d
310	f65c7addebe04aecbb4d4228f4ecf2b6	97	CardPlayed	1	{"deal_no":5,"player":"Ada","card":"4C","trick":2,"replay":false}	2026-11-25 23:00:12.243026+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	4d5f159437968c25c3a469d9b9a8b45899b4304575d971d4de36849b303aae26
311	f65c7addebe04aecbb4d4228f4ecf2b6	98	CardPlayed	1	{"deal_no":5,"player":"Ben","card":"5S","trick":2,"replay":false}	2026-11-25 23:00:12.252143+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	7361fc077c1b436ff34116f62bf76bc068bff9307d9e8fad1728bd85874fd5c7
312	f65c7addebe04aecbb4d4228f4ecf2b6	99	CardPlayed	1	{"deal_no":5,"player":"Cat","card":"QD","trick":2,"replay":false}	2026-11-25 23:00:12.258205+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	c13899e5750c9e3c3f54b4ae55aa44c1ab019fdadb6110783585c540924d8dce
313	f65c7addebe04aecbb4d4228f4ecf2b6	100	BreachDetected	1	{"deal_no":5,"player":"Cat","rule":"revoke","trick":1,"card":"KC","held":["KC","QD"],"detail":"held QD of the suit led and played KC","replay":false}	2026-11-25 23:00:12.258205+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	1638c25f07fefdae9991f51701362e564ae9eb5faa869ecb85e106a9ef4a59ee
314	f65c7addebe04aecbb4d4228f4ecf2b6	101	PenaltyImposed	1	{"deal_no":5,"player":"Cat","offence":"revoke","law":"Cassell, Revoke: when a person who can follow suit does not","amount_units":3,"destination":"next_pool","kind":"loo","forfeits_winnings":false,"throw_up":false,"redeal":false,"replay":"none","detected":true,"evidence":{"player":"Cat","rule":"revoke","trick":1,"card":"KC","held":["KC","QD"],"detail":"held QD of the suit led and played KC"},"postings":[{"from":"Cat","to":"next_pool","amount_units":3,"reason":"penalty","offence":"revoke","deal_no":5,"loo":true}],"stage":"in-play","leaves_play":false}	2026-11-25 23:00:12.258205+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	f4e5b4bcf35da67ccc732dc6a8c74fe546a4bbe3dade7c111a7e28b80f080c63
315	f65c7addebe04aecbb4d4228f4ecf2b6	102	TrickWon	1	{"deal_no":5,"trick":2,"winner":"Cat","cards":[["Fay","6S"],["Ada","4C"],["Ben","5S"],["Cat","QD"]],"replay":false}	2026-11-25 23:00:12.258205+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	b0dcc174db2c9c8947c5365981e4cc213aea552307356ffe158356adc0770a06
316	f65c7addebe04aecbb4d4228f4ecf2b6	103	CardPlayed	1	{"deal_no":5,"player":"Cat","card":"6C","trick":3,"replay":false}	2026-11-25 23:00:12.271036+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	c9cf4eb050ace154af161a5f3509adb17318c5efcdc2eee749023cb80a70d6b6
317	f65c7addebe04aecbb4d4228f4ecf2b6	104	CardPlayed	1	{"deal_no":5,"player":"Fay","card":"7D","trick":3,"replay":false}	2026-11-25 23:00:12.289793+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	c2dbec6c0bb41c46f4ef5f8dfbd191e995a6c0f4400bd0db3f2947e06f90f34d
318	f65c7addebe04aecbb4d4228f4ecf2b6	105	BreachDetected	1	{"deal_no":5,"player":"Fay","rule":"lead-highest-trump","trick":1,"card":"6D","held":["7D","6D","6S"],"detail":"held trumps 7D, 6D and led 6D","replay":false}	2026-11-25 23:00:12.289793+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	e47d2728605756eb15944f36f17ce165ba5030cec66464f1aced9912ac961896
319	f65c7addebe04aecbb4d4228f4ecf2b6	106	PenaltyImposed	1	{"deal_no":5,"player":"Fay","offence":"lead-rule","law":"Cassell: the elder hand plays his highest trump, or his highest card","amount_units":3,"destination":"next_pool","kind":"loo","forfeits_winnings":false,"throw_up":false,"redeal":false,"replay":"none","detected":true,"evidence":{"player":"Fay","rule":"lead-highest-trump","trick":1,"card":"6D","held":["7D","6D","6S"],"detail":"held trumps 7D, 6D and led 6D"},"postings":[{"from":"Fay","to":"next_pool","amount_units":3,"reason":"penalty","offence":"lead-rule","deal_no":5,"loo":true}],"stage":"in-play","leaves_play":false}	2026-11-25 23:00:12.289793+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	6a81152be5d96ed2e723c42ac27c0eb1723c553412f587caeb5cc8162710d0aa
320	f65c7addebe04aecbb4d4228f4ecf2b6	107	BreachDetected	1	{"deal_no":5,"player":"Fay","rule":"trump-after-trick","trick":2,"card":"6S","held":["7D","6S"],"detail":"won the first trick holding 7D and led 6S","replay":false}	2026-11-25 23:00:12.289793+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	cb771feddd8cf0e6c304983fe6ec40d6b55d4531189b6dcfd43f7813d9e2da64
321	f65c7addebe04aecbb4d4228f4ecf2b6	108	CardPlayed	1	{"deal_no":5,"player":"Ada","card":"4H","trick":3,"replay":false}	2026-11-25 23:00:12.2998+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	3fef6cee3a69a1d346c7e5bef36369def47ad4fcafb457d02f99af3fb26c0d8a
322	f65c7addebe04aecbb4d4228f4ecf2b6	109	CardPlayed	1	{"deal_no":5,"player":"Ben","card":"QH","trick":3,"replay":false}	2026-11-25 23:00:12.310237+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	9d8236292ab486b99d2e70a4252ca7eb36bbf85779dc78199dcda032c3a92507
323	f65c7addebe04aecbb4d4228f4ecf2b6	110	TrickWon	1	{"deal_no":5,"trick":3,"winner":"Fay","cards":[["Cat","6C"],["Fay","7D"],["Ada","4H"],["Ben","QH"]],"replay":false}	2026-11-25 23:00:12.310237+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	f77d64acca9459af7e1db465035bf2d917c417a5b784ca40627da682966db692
324	f65c7addebe04aecbb4d4228f4ecf2b6	111	DealSettled	1	{"deal_no":5,"outcome":"divided","pool_units":21,"loo_units":3,"shares":[{"trick":1,"winner":"Fay","amount_units":7,"paid_to":"Fay","stays_in_pool":null},{"trick":2,"winner":"Cat","amount_units":7,"paid_to":"Cat","stays_in_pool":null},{"trick":3,"winner":"Fay","amount_units":7,"paid_to":"Fay","stays_in_pool":null}],"looed":["Ada","Ben"],"carried_units":0,"next_fresh":false,"next_forced":null,"postings":[{"from":"pool","to":"Fay","amount_units":7,"reason":"trick","deal_no":5},{"from":"pool","to":"Cat","amount_units":7,"reason":"trick","deal_no":5},{"from":"pool","to":"Fay","amount_units":7,"reason":"trick","deal_no":5},{"from":"Ada","to":"next_pool","amount_units":3,"reason":"loo","deal_no":5,"loo":true},{"from":"Ben","to":"next_pool","amount_units":3,"reason":"loo","deal_no":5,"loo":true},{"from":"Eve","to":"next_pool","amount_units":3,"reason":"penalty","offence":"misdeal","deal_no":5,"loo":true}]}	2026-11-25 23:00:12.310237+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	030acff6933f9f3c7ff0c954b51c19bfb1ab3dcd946e3658b1203624ca46501a
325	f65c7addebe04aecbb4d4228f4ecf2b6	112	DealStarted	1	{"deal_no":6,"dealer":"Fay","kind":"hand","trump_card":"5H","dealt":["Gus","Ada","Ben","Cat","Dan","Eve","Fay"],"fresh":false,"forced":null,"miss":true,"redeal":false,"face_up":{},"postings":[{"from":"Fay","to":"pool","amount_units":3,"reason":"deal","deal_no":6},{"from":"next_pool","to":"pool","amount_units":15,"reason":"brought_forward","deal_no":6}]}	2026-11-25 23:00:12.313135+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	92c896ca00fb8cf2f8b3985adfc6f4334fb29321eaf6f791859616e5d51a144d
326	f65c7addebe04aecbb4d4228f4ecf2b6	113	DeclarationMade	1	{"deal_no":6,"player":"Gus","declaration":"take_miss"}	2026-11-25 23:00:12.32522+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	d93abe9f4492fc7cdf112b8dc8f9f8c72fbc6dc52710f629957fa1332c8c977e
327	f65c7addebe04aecbb4d4228f4ecf2b6	114	DeclarationMade	1	{"deal_no":6,"player":"Ada","declaration":"throw_up"}	2026-11-25 23:00:12.329934+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	f96a4559d014018ad6f394ba194dd931eb42453b49410f1ab59cbaea9e144e2d
328	f65c7addebe04aecbb4d4228f4ecf2b6	115	DeclarationMade	1	{"deal_no":6,"player":"Ben","declaration":"play"}	2026-11-25 23:00:12.335032+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	72d1f884ea8816cf4d99ee6f92f82ce5e8edef75eaecb34f9c49a4ca0ca5b4e5
329	f65c7addebe04aecbb4d4228f4ecf2b6	116	DeclarationMade	1	{"deal_no":6,"player":"Cat","declaration":"play"}	2026-11-25 23:00:12.34495+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	6e32674cd1dd2b25ed5822b397a68edc5d64214f77024bb85740a266fb7a9f85
330	f65c7addebe04aecbb4d4228f4ecf2b6	117	DeclarationMade	1	{"deal_no":6,"player":"Dan","declaration":"throw_up"}	2026-11-25 23:00:12.351515+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	ff1f96e9e4c1470131cf81cecc7be23a752c543527643735836c56187d05597e
331	f65c7addebe04aecbb4d4228f4ecf2b6	118	DeclarationMade	1	{"deal_no":6,"player":"Eve","declaration":"play"}	2026-11-25 23:00:12.357805+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	45d5f2e975fbf56fabcf352ad8daf253c3de3ff67e08d3239e40d78467f0ffb5
332	f65c7addebe04aecbb4d4228f4ecf2b6	119	DeclarationMade	1	{"deal_no":6,"player":"Fay","declaration":"throw_up"}	2026-11-25 23:00:12.373116+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	039fd19f7eea0d2437b293033d1e8f038854d797bb0f95c4d439d70006498f04
333	f65c7addebe04aecbb4d4228f4ecf2b6	120	TrickWon	1	{"deal_no":6,"trick":1,"winner":"Gus","cards":[],"replay":false}	2026-11-25 23:00:12.381923+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	e91782e80e97c6e52804c753521f762c9b0f0c43492feba586f873223da85058
334	f65c7addebe04aecbb4d4228f4ecf2b6	121	TrickWon	1	{"deal_no":6,"trick":2,"winner":"Gus","cards":[],"replay":false}	2026-11-25 23:00:12.388655+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	5e9f62e0c0c7542386ebf264722e2d1f57bae997addf1f1138a74ed34d418c52
335	f65c7addebe04aecbb4d4228f4ecf2b6	122	TrickWon	1	{"deal_no":6,"trick":3,"winner":"Eve","cards":[],"replay":false}	2026-11-25 23:00:12.396641+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	dc6f66055539bc5fb1cea7d12636e86c3a12290e69975c4213d17130fbaa73f2
336	f65c7addebe04aecbb4d4228f4ecf2b6	123	DealSettled	1	{"deal_no":6,"outcome":"divided","pool_units":18,"loo_units":3,"shares":[{"trick":1,"winner":"Gus","amount_units":6,"paid_to":"Gus","stays_in_pool":null},{"trick":2,"winner":"Gus","amount_units":6,"paid_to":"Gus","stays_in_pool":null},{"trick":3,"winner":"Eve","amount_units":6,"paid_to":"Eve","stays_in_pool":null}],"looed":["Ben","Cat"],"carried_units":0,"next_fresh":false,"next_forced":null,"postings":[{"from":"pool","to":"Gus","amount_units":6,"reason":"trick","deal_no":6},{"from":"pool","to":"Gus","amount_units":6,"reason":"trick","deal_no":6},{"from":"pool","to":"Eve","amount_units":6,"reason":"trick","deal_no":6},{"from":"Ben","to":"next_pool","amount_units":3,"reason":"loo","deal_no":6,"loo":true},{"from":"Cat","to":"next_pool","amount_units":3,"reason":"loo","deal_no":6,"loo":true}]}	2026-11-25 23:00:12.396641+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	097dec0a877623105a243a5204d5431931deaf6d256c086e05f8b6862c2221ba
337	f65c7addebe04aecbb4d4228f4ecf2b6	124	SessionEnded	1	{"method":"release-last-loos","postings":[{"from":"next_pool","to":"Ben","amount_units":3,"reason":"loo_released","released":"loo"},{"from":"next_pool","to":"Cat","amount_units":3,"reason":"loo_released","released":"loo"}]}	2026-11-25 23:00:12.406928+00	Tess	\N	dc6b317c71b74a8cbb15f990b8fb3584	\N	db361f2dc6e938210b2f68f3c56e125aeec4c53e233129daf4a80402affd170e
\.


--
-- Data for Name: idempotency_keys; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.idempotency_keys (scope, key, fingerprint, status_code, response, created_at) FROM stdin;
\.


--
-- Data for Name: members; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.members (id, club_id, name, name_key, guest, created_at) FROM stdin;
dc6b317c71b74a8cbb15f990b8fb3584	89df7d879aa044ad841d3ad5c854d093	Tess	tess	f	2026-11-25 23:00:09.701346+00
de4958b7d3674722b75f74d0cec7e903	89df7d879aa044ad841d3ad5c854d093	Ada	ada	t	2026-11-25 23:00:09.750697+00
539abcfd2ca041c7aea889bb94081643	89df7d879aa044ad841d3ad5c854d093	Ben	ben	t	2026-11-25 23:00:09.750697+00
b1a6f86d925840dba673e30c40d0077e	89df7d879aa044ad841d3ad5c854d093	Cat	cat	t	2026-11-25 23:00:09.750697+00
8ff62e5b25574e648f0055ab2659fe5d	89df7d879aa044ad841d3ad5c854d093	Dan	dan	t	2026-11-25 23:00:10.631894+00
8916158a41f64bf58060d0f00343a96b	89df7d879aa044ad841d3ad5c854d093	Eve	eve	t	2026-11-25 23:00:11.682229+00
99abd8eff8aa4ccb882426726702ee54	89df7d879aa044ad841d3ad5c854d093	Fay	fay	t	2026-11-25 23:00:11.682229+00
3e0ba1d0f2d54a3c9926ecc404e950e0	89df7d879aa044ad841d3ad5c854d093	Gus	gus	t	2026-11-25 23:00:11.682229+00
\.


--
-- Data for Name: session_results; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.session_results (session_id, seat, session_name, club_id, member_id, currency, net_units, net_minor, deals_dealt, loos, loo_units, penalties, penalty_units, ended_at, version) FROM stdin;
38bbfac0225b49628efaae2fbd9ba258	Ada	generated	89df7d879aa044ad841d3ad5c854d093	de4958b7d3674722b75f74d0cec7e903	units	8	\N	2	2	9	1	6	2026-11-25 23:00:10.502027+00	75
38bbfac0225b49628efaae2fbd9ba258	Ben	generated	89df7d879aa044ad841d3ad5c854d093	539abcfd2ca041c7aea889bb94081643	units	2	\N	2	2	6	1	3	2026-11-25 23:00:10.502027+00	75
38bbfac0225b49628efaae2fbd9ba258	Cat	generated	89df7d879aa044ad841d3ad5c854d093	b1a6f86d925840dba673e30c40d0077e	units	-10	\N	2	3	12	0	0	2026-11-25 23:00:10.502027+00	75
005db11b0985430493ac0fc9f0e1bedd	Ada	generated	89df7d879aa044ad841d3ad5c854d093	de4958b7d3674722b75f74d0cec7e903	units	26	\N	1	0	0	0	0	2026-11-25 23:00:10.789836+00	38
005db11b0985430493ac0fc9f0e1bedd	Ben	generated	89df7d879aa044ad841d3ad5c854d093	539abcfd2ca041c7aea889bb94081643	units	-3	\N	0	0	0	0	0	2026-11-25 23:00:10.789836+00	38
005db11b0985430493ac0fc9f0e1bedd	Cat	generated	89df7d879aa044ad841d3ad5c854d093	b1a6f86d925840dba673e30c40d0077e	units	-5	\N	1	1	9	0	0	2026-11-25 23:00:10.789836+00	38
005db11b0985430493ac0fc9f0e1bedd	Dan	generated	89df7d879aa044ad841d3ad5c854d093	8ff62e5b25574e648f0055ab2659fe5d	units	-18	\N	1	1	9	1	3	2026-11-25 23:00:10.789836+00	38
005db11b0985430493ac0fc9f0e1bedd	Hal	generated	89df7d879aa044ad841d3ad5c854d093	\N	units	0	\N	0	0	0	0	0	2026-11-25 23:00:10.789836+00	38
4f5d314d22a444aead06f2088706fba1	Ada	generated	89df7d879aa044ad841d3ad5c854d093	de4958b7d3674722b75f74d0cec7e903	units	0	\N	2	1	3	1	3	2026-11-25 23:00:11.611631+00	100
4f5d314d22a444aead06f2088706fba1	Ben	generated	89df7d879aa044ad841d3ad5c854d093	539abcfd2ca041c7aea889bb94081643	units	0	\N	2	1	3	0	0	2026-11-25 23:00:11.611631+00	100
4f5d314d22a444aead06f2088706fba1	Cat	generated	89df7d879aa044ad841d3ad5c854d093	b1a6f86d925840dba673e30c40d0077e	units	-2	\N	1	2	6	0	0	2026-11-25 23:00:11.611631+00	100
4f5d314d22a444aead06f2088706fba1	Dan	generated	89df7d879aa044ad841d3ad5c854d093	8ff62e5b25574e648f0055ab2659fe5d	units	2	\N	1	2	6	1	3	2026-11-25 23:00:11.611631+00	100
f65c7addebe04aecbb4d4228f4ecf2b6	Ada	generated	89df7d879aa044ad841d3ad5c854d093	de4958b7d3674722b75f74d0cec7e903	GBP	-7	-420	1	1	3	0	0	2026-11-25 23:00:12.406928+00	124
f65c7addebe04aecbb4d4228f4ecf2b6	Ben	generated	89df7d879aa044ad841d3ad5c854d093	539abcfd2ca041c7aea889bb94081643	GBP	-11	-660	1	2	6	1	3	2026-11-25 23:00:12.406928+00	124
f65c7addebe04aecbb4d4228f4ecf2b6	Cat	generated	89df7d879aa044ad841d3ad5c854d093	b1a6f86d925840dba673e30c40d0077e	GBP	-5	-300	1	1	3	1	3	2026-11-25 23:00:12.406928+00	124
f65c7addebe04aecbb4d4228f4ecf2b6	Dan	generated	89df7d879aa044ad841d3ad5c854d093	8ff62e5b25574e648f0055ab2659fe5d	GBP	-12	-720	1	0	0	1	3	2026-11-25 23:00:12.406928+00	124
f65c7addebe04aecbb4d4228f4ecf2b6	Eve	generated	89df7d879aa044ad841d3ad5c854d093	8916158a41f64bf58060d0f00343a96b	GBP	27	1620	1	0	0	1	3	2026-11-25 23:00:12.406928+00	124
f65c7addebe04aecbb4d4228f4ecf2b6	Fay	generated	89df7d879aa044ad841d3ad5c854d093	99abd8eff8aa4ccb882426726702ee54	GBP	-2	-120	1	2	6	2	6	2026-11-25 23:00:12.406928+00	124
f65c7addebe04aecbb4d4228f4ecf2b6	Gus	generated	89df7d879aa044ad841d3ad5c854d093	3e0ba1d0f2d54a3c9926ecc404e950e0	GBP	10	600	0	0	0	0	0	2026-11-25 23:00:12.406928+00	124
\.


--
-- Data for Name: sessions; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.sessions (id, club_id, version, state, created_at, updated_at, head_hash) FROM stdin;
38bbfac0225b49628efaae2fbd9ba258	89df7d879aa044ad841d3ad5c854d093	75	{"session_id":"38bbfac0225b49628efaae2fbd9ba258","name":"generated","rules":{"preset":"baxter-wray","stake":3,"deal_price":3,"fresh_deal_price":3,"ante":0,"loo":"limited","loo_amount":6,"loo_limit":null,"single_loo":3,"loo_capped_at_pool":false,"fresh_pool":"turn-up","lead_rule":"highest-of-two","trump_after_trick":"higher-of-two","ace_turned_up_king_leads":true,"miss_holder_leads":false,"club_law":false,"force_after_single":false,"dealer_stands_out_above":null,"last_before_dealer_bound":false,"deal_out_of_turn":"refuse","penalties":"baxter-wray","variant":"three-card","pack":52},"unit":"counter","money_per_unit_minor":null,"currency":null,"seats":["Ada","Ben","Cat"],"active":["Ada","Ben","Cat"],"version":75,"status":"ended","ended_method":"divide-pool","deal_no":6,"next_dealer":"Ada","last_dealer":"Cat","next_fresh":false,"next_forced":null,"last_round_left":0,"withdrawing":null,"deals_dealt":{"Ada":2,"Ben":2,"Cat":2},"balances":{"Ada":8,"Ben":2,"Cat":-10,"pool":0,"next_pool":0},"totals":{"Ada":{"deal":-6,"single_loo":-3,"loo":-6,"trick":18,"pool_taken":9,"penalty:not-heading":-6,"end_division":2},"Ben":{"single_loo":-6,"deal":-6,"trick":15,"penalty:interfering-with-deal":-3,"end_division":2},"Cat":{"single_loo":-6,"deal":-6,"trick":6,"loo":-6,"end_division":2}},"pool_flows":{"pool:deal":18,"next_pool:single_loo":15,"pool:carried_forward":-12,"next_pool:carried_forward":12,"next_pool:brought_forward":-39,"pool:brought_forward":39,"pool:trick":-39,"next_pool:loo":12,"pool:pool_taken":-9,"next_pool:penalty:not-heading":6,"pool:penalty:interfering-with-deal":3,"next_pool:end_division":-6},"loos_owed":[],"outcomes":{"single-not-won":1,"divided":4,"single-won":1},"corrections":[],"deal":{"deal_no":6,"dealer":"Cat","kind":"hand","trump_card":"KC","dealt":["Ada","Ben","Cat"],"fresh":false,"forced":null,"miss":true,"face_up":{},"phase":"settled","redeals":0,"declarations":{"Ada":"play","Ben":"throw_up","Cat":"play"},"standing":[{"player":"Ada","hand":"own"},{"player":"Cat","hand":"own"}],"entry":"cards","tricks":[{"trick":1,"winner":"Ada","cards":[["Ada","3C"],["Cat","5H"]]},{"trick":2,"winner":"Ada","cards":[["Ada","2C"],["Cat","9H"]]},{"trick":3,"winner":"Ada","cards":[["Ada","6S"],["Cat","10H"]]}],"current_trick":[],"first_play":null,"hands":{"Ada":["3C","2C","6S"],"Cat":["5H","9H","10H"]},"replay":null,"replay_asked_by":null,"pool_at_play_units":12,"penalties":[{"deal_no":6,"player":"Ben","offence":"interfering-with-deal","law":"Baxter-Wray p. 24: interfering with the cards during the deal, single loo; redeal only if cards were mixed or exposed","amount_units":3,"destination":"pool","kind":"fine","forfeits_winnings":false,"throw_up":false,"redeal":false,"replay":"none","detected":false,"evidence":{},"postings":[{"from":"Ben","to":"pool","amount_units":3,"reason":"penalty","offence":"interfering-with-deal","deal_no":6,"loo":false}],"stage":"pre-play","leaves_play":false,"hand":0}],"abandoned":{},"breaches":[],"postings":[{"from":"Cat","to":"pool","amount_units":3,"reason":"deal","deal_no":6},{"from":"next_pool","to":"pool","amount_units":9,"reason":"brought_forward","deal_no":6},{"from":"Ben","to":"pool","amount_units":3,"reason":"penalty","offence":"interfering-with-deal","deal_no":6,"loo":false},{"from":"pool","to":"Ada","amount_units":5,"reason":"trick","deal_no":6},{"from":"pool","to":"Ada","amount_units":5,"reason":"trick","deal_no":6},{"from":"pool","to":"Ada","amount_units":5,"reason":"trick","deal_no":6},{"from":"Cat","to":"next_pool","amount_units":6,"reason":"loo","deal_no":6,"loo":true}],"settlement":{"deal_no":6,"outcome":"divided","pool_units":15,"loo_units":6,"shares":[{"trick":1,"winner":"Ada","amount_units":5,"paid_to":"Ada","stays_in_pool":null},{"trick":2,"winner":"Ada","amount_units":5,"paid_to":"Ada","stays_in_pool":null},{"trick":3,"winner":"Ada","amount_units":5,"paid_to":"Ada","stays_in_pool":null}],"looed":["Cat"],"carried_units":0,"next_fresh":false,"next_forced":null}},"members":{"Ada":"de4958b7d3674722b75f74d0cec7e903","Ben":"539abcfd2ca041c7aea889bb94081643","Cat":"b1a6f86d925840dba673e30c40d0077e"}}	2026-11-25 23:00:09.806328+00	2026-11-25 23:00:10.502027+00	c615c0b50c3fc38a4c3144bad22b08ba015e8c97e9c70d2d398fad19babfb400
005db11b0985430493ac0fc9f0e1bedd	89df7d879aa044ad841d3ad5c854d093	38	{"session_id":"005db11b0985430493ac0fc9f0e1bedd","name":"generated","rules":{"preset":"blenheim","stake":3,"deal_price":3,"fresh_deal_price":6,"ante":3,"loo":"limited","loo_amount":9,"loo_limit":21,"single_loo":3,"loo_capped_at_pool":false,"fresh_pool":"antes","lead_rule":"one-of-two","trump_after_trick":"by-lead-rules","ace_turned_up_king_leads":true,"miss_holder_leads":false,"club_law":true,"force_after_single":false,"dealer_stands_out_above":null,"last_before_dealer_bound":false,"deal_out_of_turn":"stands","penalties":"blenheim","variant":"three-card","pack":52},"unit":"counter","money_per_unit_minor":null,"currency":null,"seats":["Ada","Ben","Cat","Dan","Hal"],"active":["Ada","Ben","Cat","Dan","Hal"],"version":38,"status":"ended","ended_method":"single","deal_no":3,"next_dealer":"Dan","last_dealer":"Cat","next_fresh":true,"next_forced":null,"last_round_left":0,"withdrawing":null,"deals_dealt":{"Ada":1,"Ben":0,"Cat":1,"Dan":1,"Hal":0},"balances":{"Ada":26,"Ben":-3,"Cat":-5,"Dan":-18,"pool":0,"next_pool":0,"Hal":0},"totals":{"Ada":{"ante":-3,"trick":32,"deal":-3},"Ben":{"ante":-3},"Cat":{"ante":-3,"loo":-9,"deal":-3,"trick":10},"Dan":{"deal":-6,"loo":-9,"penalty:looked-at-own-cards":-3},"Hal":{}},"pool_flows":{"pool:deal":12,"pool:ante":9,"pool:trick":-42,"next_pool:loo":18,"next_pool:brought_forward":-18,"pool:brought_forward":18,"pool:penalty:looked-at-own-cards":3},"loos_owed":[],"outcomes":{"divided":3},"corrections":[],"deal":{"deal_no":3,"dealer":"Cat","kind":"hand","trump_card":"AD","dealt":["Dan","Hal","Ada","Ben","Cat"],"fresh":false,"forced":null,"miss":true,"face_up":{},"phase":"settled","redeals":0,"declarations":{"Dan":"throw_up","Hal":"throw_up","Ada":"take_miss","Ben":"throw_up","Cat":"play"},"standing":[{"player":"Ada","hand":"miss"},{"player":"Cat","hand":"own"}],"entry":"quick","tricks":[{"trick":1,"winner":"Cat","cards":[]},{"trick":2,"winner":"Ada","cards":[]},{"trick":3,"winner":"Cat","cards":[]}],"current_trick":[],"first_play":null,"hands":{},"replay":null,"replay_asked_by":null,"pool_at_play_units":15,"penalties":[{"deal_no":3,"player":"Dan","offence":"looked-at-own-cards","law":"Blenheim law 7: looking at his cards before his turn","amount_units":3,"destination":"pool","kind":"fine","forfeits_winnings":false,"throw_up":false,"redeal":false,"replay":"none","detected":false,"evidence":{},"postings":[{"from":"Dan","to":"pool","amount_units":3,"reason":"penalty","offence":"looked-at-own-cards","deal_no":3,"loo":false}],"stage":"pre-play","leaves_play":false,"hand":0}],"abandoned":{},"breaches":[],"postings":[{"from":"Cat","to":"pool","amount_units":3,"reason":"deal","deal_no":3},{"from":"next_pool","to":"pool","amount_units":9,"reason":"brought_forward","deal_no":3},{"from":"Dan","to":"pool","amount_units":3,"reason":"penalty","offence":"looked-at-own-cards","deal_no":3,"loo":false},{"from":"pool","to":"Cat","amount_units":5,"reason":"trick","deal_no":3},{"from":"pool","to":"Ada","amount_units":5,"reason":"trick","deal_no":3},{"from":"pool","to":"Cat","amount_units":5,"reason":"trick","deal_no":3}],"settlement":{"deal_no":3,"outcome":"divided","pool_units":15,"loo_units":9,"shares":[{"trick":1,"winner":"Cat","amount_units":5,"paid_to":"Cat","stays_in_pool":null},{"trick":2,"winner":"Ada","amount_units":5,"paid_to":"Ada","stays_in_pool":null},{"trick":3,"winner":"Cat","amount_units":5,"paid_to":"Cat","stays_in_pool":null}],"looed":[],"carried_units":0,"next_fresh":true,"next_forced":null}},"members":{"Ada":"de4958b7d3674722b75f74d0cec7e903","Ben":"539abcfd2ca041c7aea889bb94081643","Cat":"b1a6f86d925840dba673e30c40d0077e","Dan":"8ff62e5b25574e648f0055ab2659fe5d"}}	2026-11-25 23:00:10.656084+00	2026-11-25 23:00:10.789836+00	647f9158cd12575f0da337935f67b3a73107b1300824b60ffc22a410c29139c5
f65c7addebe04aecbb4d4228f4ecf2b6	89df7d879aa044ad841d3ad5c854d093	124	{"session_id":"f65c7addebe04aecbb4d4228f4ecf2b6","name":"generated","rules":{"preset":"cassell","stake":3,"deal_price":3,"fresh_deal_price":3,"ante":3,"loo":"limited","loo_amount":3,"loo_limit":null,"single_loo":3,"loo_capped_at_pool":true,"fresh_pool":"antes","lead_rule":"highest-card","trump_after_trick":"highest","ace_turned_up_king_leads":false,"miss_holder_leads":false,"club_law":false,"force_after_single":false,"dealer_stands_out_above":null,"last_before_dealer_bound":true,"deal_out_of_turn":"refuse","penalties":"cassell","variant":"three-card","pack":52},"unit":"counter","money_per_unit_minor":60,"currency":"GBP","seats":["Ada","Ben","Cat","Dan","Eve","Fay","Gus"],"active":["Ada","Ben","Cat","Dan","Eve","Fay","Gus"],"version":124,"status":"ended","ended_method":"release-last-loos","deal_no":6,"next_dealer":"Gus","last_dealer":"Fay","next_fresh":false,"next_forced":null,"last_round_left":0,"withdrawing":null,"deals_dealt":{"Ada":1,"Ben":1,"Cat":1,"Dan":1,"Eve":1,"Fay":1,"Gus":0},"balances":{"Ada":-7,"Ben":-11,"Cat":-5,"Dan":-12,"Eve":27,"Fay":-2,"Gus":10,"pool":0,"next_pool":0},"totals":{"Ada":{"deal":-3,"trick":2,"ante":-3,"loo":-3},"Ben":{"ante":-6,"deal":-3,"penalty:lead-rule":-3,"trick":4,"loo":-6,"loo_released":3},"Cat":{"ante":-6,"deal":-3,"penalty:revoke":-3,"trick":7,"loo":-3,"loo_released":3},"Dan":{"ante":-6,"penalty:looked-at-miss":-3,"deal":-3},"Eve":{"ante":-3,"trick":36,"deal":-3,"penalty:misdeal":-3},"Fay":{"ante":-6,"loo":-6,"penalty:looked-at-own-cards":-3,"trick":19,"penalty:lead-rule":-3,"deal":-3},"Gus":{"ante":-6,"trick":16}},"pool_flows":{"pool:deal":18,"pool:ante":36,"pool:trick":-84,"next_pool:loo":18,"next_pool:brought_forward":-38,"pool:brought_forward":38,"next_pool:penalty:looked-at-own-cards":3,"next_pool:penalty:looked-at-miss":3,"next_pool:penalty:lead-rule":6,"pool:carried_forward":-8,"next_pool:carried_forward":8,"next_pool:penalty:revoke":3,"next_pool:penalty:misdeal":3,"next_pool:loo_released":-6},"loos_owed":[],"outcomes":{"divided":6},"corrections":[],"deal":{"deal_no":6,"dealer":"Fay","kind":"hand","trump_card":"5H","dealt":["Gus","Ada","Ben","Cat","Dan","Eve","Fay"],"fresh":false,"forced":null,"miss":true,"face_up":{},"phase":"settled","redeals":0,"declarations":{"Gus":"take_miss","Ada":"throw_up","Ben":"play","Cat":"play","Dan":"throw_up","Eve":"play","Fay":"throw_up"},"standing":[{"player":"Gus","hand":"miss"},{"player":"Ben","hand":"own"},{"player":"Cat","hand":"own"},{"player":"Eve","hand":"own"}],"entry":"quick","tricks":[{"trick":1,"winner":"Gus","cards":[]},{"trick":2,"winner":"Gus","cards":[]},{"trick":3,"winner":"Eve","cards":[]}],"current_trick":[],"first_play":null,"hands":{},"replay":null,"replay_asked_by":null,"pool_at_play_units":18,"penalties":[],"abandoned":{},"breaches":[],"postings":[{"from":"Fay","to":"pool","amount_units":3,"reason":"deal","deal_no":6},{"from":"next_pool","to":"pool","amount_units":15,"reason":"brought_forward","deal_no":6},{"from":"pool","to":"Gus","amount_units":6,"reason":"trick","deal_no":6},{"from":"pool","to":"Gus","amount_units":6,"reason":"trick","deal_no":6},{"from":"pool","to":"Eve","amount_units":6,"reason":"trick","deal_no":6},{"from":"Ben","to":"next_pool","amount_units":3,"reason":"loo","deal_no":6,"loo":true},{"from":"Cat","to":"next_pool","amount_units":3,"reason":"loo","deal_no":6,"loo":true}],"settlement":{"deal_no":6,"outcome":"divided","pool_units":18,"loo_units":3,"shares":[{"trick":1,"winner":"Gus","amount_units":6,"paid_to":"Gus","stays_in_pool":null},{"trick":2,"winner":"Gus","amount_units":6,"paid_to":"Gus","stays_in_pool":null},{"trick":3,"winner":"Eve","amount_units":6,"paid_to":"Eve","stays_in_pool":null}],"looed":["Ben","Cat"],"carried_units":0,"next_fresh":false,"next_forced":null}},"members":{"Ada":"de4958b7d3674722b75f74d0cec7e903","Ben":"539abcfd2ca041c7aea889bb94081643","Cat":"b1a6f86d925840dba673e30c40d0077e","Dan":"8ff62e5b25574e648f0055ab2659fe5d","Eve":"8916158a41f64bf58060d0f00343a96b","Fay":"99abd8eff8aa4ccb882426726702ee54","Gus":"3e0ba1d0f2d54a3c9926ecc404e950e0"}}	2026-11-25 23:00:11.702983+00	2026-11-25 23:00:12.406928+00	db361f2dc6e938210b2f68f3c56e125aeec4c53e233129daf4a80402affd170e
4f5d314d22a444aead06f2088706fba1	89df7d879aa044ad841d3ad5c854d093	100	{"session_id":"4f5d314d22a444aead06f2088706fba1","name":"generated","rules":{"preset":"enquire-within","stake":3,"deal_price":1,"fresh_deal_price":1,"ante":0,"loo":"limited","loo_amount":3,"loo_limit":null,"single_loo":1,"loo_capped_at_pool":false,"fresh_pool":"antes","lead_rule":"highest-of-two","trump_after_trick":"none","ace_turned_up_king_leads":false,"miss_holder_leads":false,"club_law":false,"force_after_single":false,"dealer_stands_out_above":null,"last_before_dealer_bound":false,"deal_out_of_turn":"refuse","penalties":"enquire-within","variant":"three-card","pack":52},"unit":"counter","money_per_unit_minor":null,"currency":null,"seats":["Ada","Ben","Cat","Dan"],"active":["Ada","Ben","Cat","Dan"],"version":100,"status":"ended","ended_method":"divide-pool","deal_no":6,"next_dealer":"Cat","last_dealer":"Ben","next_fresh":false,"next_forced":null,"last_round_left":0,"withdrawing":null,"deals_dealt":{"Ada":2,"Ben":2,"Cat":1,"Dan":1},"balances":{"Ada":0,"Ben":0,"Cat":-2,"Dan":2,"pool":0,"next_pool":0},"totals":{"Ada":{"deal":-2,"trick":7,"penalty:looked-at-another-hand":-3,"loo":-3,"end_division":1},"Ben":{"loo":-3,"deal":-2,"trick":5},"Cat":{"loo":-6,"deal":-1,"trick":4,"end_division":1},"Dan":{"penalty:played-out-of-turn":-3,"trick":11,"deal":-1,"loo":-6,"end_division":1}},"pool_flows":{"pool:deal":6,"pool:trick":-27,"next_pool:loo":18,"next_pool:brought_forward":-21,"pool:brought_forward":21,"next_pool:penalty:looked-at-another-hand":3,"next_pool:penalty:played-out-of-turn":3,"next_pool:end_division":-3},"loos_owed":[],"outcomes":{"divided":6},"corrections":[],"deal":{"deal_no":6,"dealer":"Ben","kind":"hand","trump_card":"8C","dealt":["Cat","Dan","Ada","Ben"],"fresh":false,"forced":null,"miss":true,"face_up":{},"phase":"settled","redeals":0,"declarations":{"Cat":"take_miss","Dan":"play","Ada":"throw_up","Ben":"throw_up"},"standing":[{"player":"Cat","hand":"miss"},{"player":"Dan","hand":"own"}],"entry":"cards","tricks":[{"trick":1,"winner":"Cat","cards":[["Cat","AC"],["Dan","5C"]]},{"trick":2,"winner":"Cat","cards":[["Cat","JS"],["Dan","2D"]]},{"trick":3,"winner":"Cat","cards":[["Cat","QS"],["Dan","JD"]]}],"current_trick":[],"first_play":null,"hands":{"Cat":["AC","JS","QS"],"Dan":["5C","2D","JD"]},"replay":null,"replay_asked_by":null,"pool_at_play_units":4,"penalties":[],"abandoned":{},"breaches":[],"postings":[{"from":"Ben","to":"pool","amount_units":1,"reason":"deal","deal_no":6},{"from":"next_pool","to":"pool","amount_units":3,"reason":"brought_forward","deal_no":6},{"from":"pool","to":"Cat","amount_units":2,"reason":"trick","deal_no":6},{"from":"pool","to":"Cat","amount_units":1,"reason":"trick","deal_no":6},{"from":"pool","to":"Cat","amount_units":1,"reason":"trick","deal_no":6},{"from":"Dan","to":"next_pool","amount_units":3,"reason":"loo","deal_no":6,"loo":true}],"settlement":{"deal_no":6,"outcome":"divided","pool_units":4,"loo_units":3,"shares":[{"trick":1,"winner":"Cat","amount_units":2,"paid_to":"Cat","stays_in_pool":null},{"trick":2,"winner":"Cat","amount_units":1,"paid_to":"Cat","stays_in_pool":null},{"trick":3,"winner":"Cat","amount_units":1,"paid_to":"Cat","stays_in_pool":null}],"looed":["Dan"],"carried_units":0,"next_fresh":false,"next_forced":null}},"members":{"Ada":"de4958b7d3674722b75f74d0cec7e903","Ben":"539abcfd2ca041c7aea889bb94081643","Cat":"b1a6f86d925840dba673e30c40d0077e","Dan":"8ff62e5b25574e648f0055ab2659fe5d"}}	2026-11-25 23:00:10.839445+00	2026-11-25 23:00:11.611631+00	23d08966072cdde4a3c66ae692d926a169112c1daaca60280b18cbe6f8c9d99a
\.


--
-- Data for Name: snapshots; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.snapshots (session_id, version, state) FROM stdin;
4f5d314d22a444aead06f2088706fba1	100	{"session_id":"4f5d314d22a444aead06f2088706fba1","name":"generated","rules":{"preset":"enquire-within","stake":3,"deal_price":1,"fresh_deal_price":1,"ante":0,"loo":"limited","loo_amount":3,"loo_limit":null,"single_loo":1,"loo_capped_at_pool":false,"fresh_pool":"antes","lead_rule":"highest-of-two","trump_after_trick":"none","ace_turned_up_king_leads":false,"miss_holder_leads":false,"club_law":false,"force_after_single":false,"dealer_stands_out_above":null,"last_before_dealer_bound":false,"deal_out_of_turn":"refuse","penalties":"enquire-within","variant":"three-card","pack":52},"unit":"counter","money_per_unit_minor":null,"currency":null,"seats":["Ada","Ben","Cat","Dan"],"active":["Ada","Ben","Cat","Dan"],"version":100,"status":"ended","ended_method":"divide-pool","deal_no":6,"next_dealer":"Cat","last_dealer":"Ben","next_fresh":false,"next_forced":null,"last_round_left":0,"withdrawing":null,"deals_dealt":{"Ada":2,"Ben":2,"Cat":1,"Dan":1},"balances":{"Ada":0,"Ben":0,"Cat":-2,"Dan":2,"pool":0,"next_pool":0},"totals":{"Ada":{"deal":-2,"trick":7,"penalty:looked-at-another-hand":-3,"loo":-3,"end_division":1},"Ben":{"loo":-3,"deal":-2,"trick":5},"Cat":{"loo":-6,"deal":-1,"trick":4,"end_division":1},"Dan":{"penalty:played-out-of-turn":-3,"trick":11,"deal":-1,"loo":-6,"end_division":1}},"pool_flows":{"pool:deal":6,"pool:trick":-27,"next_pool:loo":18,"next_pool:brought_forward":-21,"pool:brought_forward":21,"next_pool:penalty:looked-at-another-hand":3,"next_pool:penalty:played-out-of-turn":3,"next_pool:end_division":-3},"loos_owed":[],"outcomes":{"divided":6},"corrections":[],"deal":{"deal_no":6,"dealer":"Ben","kind":"hand","trump_card":"8C","dealt":["Cat","Dan","Ada","Ben"],"fresh":false,"forced":null,"miss":true,"face_up":{},"phase":"settled","redeals":0,"declarations":{"Cat":"take_miss","Dan":"play","Ada":"throw_up","Ben":"throw_up"},"standing":[{"player":"Cat","hand":"miss"},{"player":"Dan","hand":"own"}],"entry":"cards","tricks":[{"trick":1,"winner":"Cat","cards":[["Cat","AC"],["Dan","5C"]]},{"trick":2,"winner":"Cat","cards":[["Cat","JS"],["Dan","2D"]]},{"trick":3,"winner":"Cat","cards":[["Cat","QS"],["Dan","JD"]]}],"current_trick":[],"first_play":null,"hands":{"Cat":["AC","JS","QS"],"Dan":["5C","2D","JD"]},"replay":null,"replay_asked_by":null,"pool_at_play_units":4,"penalties":[],"abandoned":{},"breaches":[],"postings":[{"from":"Ben","to":"pool","amount_units":1,"reason":"deal","deal_no":6},{"from":"next_pool","to":"pool","amount_units":3,"reason":"brought_forward","deal_no":6},{"from":"pool","to":"Cat","amount_units":2,"reason":"trick","deal_no":6},{"from":"pool","to":"Cat","amount_units":1,"reason":"trick","deal_no":6},{"from":"pool","to":"Cat","amount_units":1,"reason":"trick","deal_no":6},{"from":"Dan","to":"next_pool","amount_units":3,"reason":"loo","deal_no":6,"loo":true}],"settlement":{"deal_no":6,"outcome":"divided","pool_units":4,"loo_units":3,"shares":[{"trick":1,"winner":"Cat","amount_units":2,"paid_to":"Cat","stays_in_pool":null},{"trick":2,"winner":"Cat","amount_units":1,"paid_to":"Cat","stays_in_pool":null},{"trick":3,"winner":"Cat","amount_units":1,"paid_to":"Cat","stays_in_pool":null}],"looed":["Dan"],"carried_units":0,"next_fresh":false,"next_forced":null}},"members":{"Ada":"de4958b7d3674722b75f74d0cec7e903","Ben":"539abcfd2ca041c7aea889bb94081643","Cat":"b1a6f86d925840dba673e30c40d0077e","Dan":"8ff62e5b25574e648f0055ab2659fe5d"}}
f65c7addebe04aecbb4d4228f4ecf2b6	102	{"session_id":"f65c7addebe04aecbb4d4228f4ecf2b6","name":"generated","rules":{"preset":"cassell","stake":3,"deal_price":3,"fresh_deal_price":3,"ante":3,"loo":"limited","loo_amount":3,"loo_limit":null,"single_loo":3,"loo_capped_at_pool":true,"fresh_pool":"antes","lead_rule":"highest-card","trump_after_trick":"highest","ace_turned_up_king_leads":false,"miss_holder_leads":false,"club_law":false,"force_after_single":false,"dealer_stands_out_above":null,"last_before_dealer_bound":true,"deal_out_of_turn":"refuse","penalties":"cassell","variant":"three-card","pack":52},"unit":"counter","money_per_unit_minor":60,"currency":"GBP","seats":["Ada","Ben","Cat","Dan","Eve","Fay","Gus"],"active":["Ada","Ben","Cat","Dan","Eve","Fay","Gus"],"version":102,"status":"open","ended_method":null,"deal_no":5,"next_dealer":"Eve","last_dealer":"Eve","next_fresh":true,"next_forced":null,"last_round_left":0,"withdrawing":null,"deals_dealt":{"Ada":1,"Ben":1,"Cat":1,"Dan":1,"Eve":1,"Fay":0,"Gus":0},"balances":{"Ada":-4,"Ben":-8,"Cat":-12,"Dan":-12,"Eve":24,"Fay":-10,"Gus":-2,"pool":21,"next_pool":3},"totals":{"Ada":{"deal":-3,"trick":2,"ante":-3},"Ben":{"ante":-6,"deal":-3,"penalty:lead-rule":-3,"trick":4},"Cat":{"ante":-6,"deal":-3,"penalty:revoke":-3},"Dan":{"ante":-6,"penalty:looked-at-miss":-3,"deal":-3},"Eve":{"ante":-3,"trick":30,"deal":-3},"Fay":{"ante":-6,"loo":-6,"penalty:looked-at-own-cards":-3,"trick":5},"Gus":{"ante":-6,"trick":4}},"pool_flows":{"pool:deal":15,"pool:ante":36,"pool:trick":-45,"next_pool:loo":6,"next_pool:brought_forward":-23,"pool:brought_forward":23,"next_pool:penalty:looked-at-own-cards":3,"next_pool:penalty:looked-at-miss":3,"next_pool:penalty:lead-rule":3,"pool:carried_forward":-8,"next_pool:carried_forward":8,"next_pool:penalty:revoke":3},"loos_owed":[{"player":"Cat","amount_units":3,"deal_no":5,"reason":"penalty:revoke"}],"outcomes":{"divided":4},"corrections":[],"deal":{"deal_no":5,"dealer":"Eve","kind":"hand","trump_card":"AD","dealt":["Fay","Gus","Ada","Ben","Cat","Dan","Eve"],"fresh":true,"forced":null,"miss":true,"face_up":{},"phase":"playing","redeals":1,"declarations":{"Fay":"play","Gus":"throw_up","Ada":"play","Ben":"take_miss","Cat":"play","Dan":"throw_up","Eve":"throw_up"},"standing":[{"player":"Fay","hand":"own"},{"player":"Ada","hand":"own"},{"player":"Ben","hand":"miss"},{"player":"Cat","hand":"own"}],"entry":"cards","tricks":[{"trick":1,"winner":"Fay","cards":[["Fay","6D"],["Ada","JH"],["Ben","4D"],["Cat","KC"]]},{"trick":2,"winner":"Cat","cards":[["Fay","6S"],["Ada","4C"],["Ben","5S"],["Cat","QD"]]}],"current_trick":[],"first_play":null,"hands":{"Fay":["6D","6S"],"Ada":["JH","4C"],"Ben":["4D","5S"],"Cat":["KC","QD"]},"replay":null,"replay_asked_by":null,"pool_at_play_units":21,"penalties":[{"deal_no":5,"player":"Eve","offence":"misdeal","law":"Cassell, Mis-deal; Looed: breaking any law of the game (misdeal)","amount_units":null,"destination":"next_pool-at-settlement","kind":"loo","forfeits_winnings":false,"throw_up":false,"redeal":true,"replay":"none","detected":false,"evidence":{},"postings":[],"stage":"pre-play","leaves_play":false,"hand":0},{"deal_no":5,"player":"Cat","offence":"revoke","law":"Cassell, Revoke: when a person who can follow suit does not","amount_units":3,"destination":"next_pool","kind":"loo","forfeits_winnings":false,"throw_up":false,"redeal":false,"replay":"none","detected":true,"evidence":{"player":"Cat","rule":"revoke","trick":1,"card":"KC","held":["KC","QD"],"detail":"held QD of the suit led and played KC"},"postings":[{"from":"Cat","to":"next_pool","amount_units":3,"reason":"penalty","offence":"revoke","deal_no":5,"loo":true}],"stage":"in-play","leaves_play":false,"hand":1}],"abandoned":{},"breaches":[{"deal_no":5,"player":"Cat","rule":"revoke","trick":1,"card":"KC","held":["KC","QD"],"detail":"held QD of the suit led and played KC","replay":false}],"postings":[{"from":"Eve","to":"pool","amount_units":3,"reason":"deal","deal_no":5},{"from":"Ada","to":"pool","amount_units":3,"reason":"ante","deal_no":5},{"from":"Ben","to":"pool","amount_units":3,"reason":"ante","deal_no":5},{"from":"Cat","to":"pool","amount_units":3,"reason":"ante","deal_no":5},{"from":"Dan","to":"pool","amount_units":3,"reason":"ante","deal_no":5},{"from":"Fay","to":"pool","amount_units":3,"reason":"ante","deal_no":5},{"from":"Gus","to":"pool","amount_units":3,"reason":"ante","deal_no":5},{"from":"Cat","to":"next_pool","amount_units":3,"reason":"penalty","offence":"revoke","deal_no":5,"loo":true}],"settlement":null},"members":{"Ada":"de4958b7d3674722b75f74d0cec7e903","Ben":"539abcfd2ca041c7aea889bb94081643","Cat":"b1a6f86d925840dba673e30c40d0077e","Dan":"8ff62e5b25574e648f0055ab2659fe5d","Eve":"8916158a41f64bf58060d0f00343a96b","Fay":"99abd8eff8aa4ccb882426726702ee54","Gus":"3e0ba1d0f2d54a3c9926ecc404e950e0"}}
\.


--
-- Data for Name: tokens; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.tokens (id, club_id, member_id, role, label, secret_hash, created_at, expires_at, revoked_at) FROM stdin;
8ea112fb0ceae13c	89df7d879aa044ad841d3ad5c854d093	dc6b317c71b74a8cbb15f990b8fb3584	admin	first admin token	7e291b7da8090765b67005b09d609d9dd77b9f5622d6378e2999de6e6d501d96	2026-11-25 23:00:09.709224+00	\N	\N
\.


--
-- Name: book_entries_position_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.book_entries_position_seq', 1, true);


--
-- Name: events_position_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.events_position_seq', 337, true);


--
-- Name: alembic_version alembic_version_pkc; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.alembic_version
    ADD CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num);


--
-- Name: book_entries pk_book_entries; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.book_entries
    ADD CONSTRAINT pk_book_entries PRIMARY KEY ("position");


--
-- Name: clubs pk_clubs; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.clubs
    ADD CONSTRAINT pk_clubs PRIMARY KEY (id);


--
-- Name: deal_views pk_deal_views; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.deal_views
    ADD CONSTRAINT pk_deal_views PRIMARY KEY (session_id, deal_no);


--
-- Name: events pk_events; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT pk_events PRIMARY KEY ("position");


--
-- Name: idempotency_keys pk_idempotency_keys; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.idempotency_keys
    ADD CONSTRAINT pk_idempotency_keys PRIMARY KEY (scope, key);


--
-- Name: members pk_members; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.members
    ADD CONSTRAINT pk_members PRIMARY KEY (id);


--
-- Name: session_results pk_session_results; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.session_results
    ADD CONSTRAINT pk_session_results PRIMARY KEY (session_id, seat);


--
-- Name: sessions pk_sessions; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sessions
    ADD CONSTRAINT pk_sessions PRIMARY KEY (id);


--
-- Name: snapshots pk_snapshots; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.snapshots
    ADD CONSTRAINT pk_snapshots PRIMARY KEY (session_id, version);


--
-- Name: tokens pk_tokens; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tokens
    ADD CONSTRAINT pk_tokens PRIMARY KEY (id);


--
-- Name: book_entries uq_book_entries_club_id_seq; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.book_entries
    ADD CONSTRAINT uq_book_entries_club_id_seq UNIQUE (club_id, seq);


--
-- Name: clubs uq_clubs_name_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.clubs
    ADD CONSTRAINT uq_clubs_name_key UNIQUE (name_key);


--
-- Name: events uq_events_stream_id_version; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT uq_events_stream_id_version UNIQUE (stream_id, version);


--
-- Name: members uq_members_club_id_name_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.members
    ADD CONSTRAINT uq_members_club_id_name_key UNIQUE (club_id, name_key);


--
-- Name: ix_events_actor_position; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_events_actor_position ON public.events USING btree (actor, "position");


--
-- Name: ix_events_breach; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_events_breach ON public.events USING btree (((payload ->> 'rule'::text)), "position") WHERE ((type)::text = 'BreachDetected'::text);


--
-- Name: ix_events_member_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_events_member_id ON public.events USING btree (member_id);


--
-- Name: ix_events_member_id_position; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_events_member_id_position ON public.events USING btree (member_id, "position");


--
-- Name: ix_events_offence; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_events_offence ON public.events USING btree (((payload ->> 'offence'::text)), "position") WHERE ((type)::text = 'PenaltyImposed'::text);


--
-- Name: ix_events_player; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_events_player ON public.events USING btree (((payload ->> 'player'::text)), "position") WHERE ((type)::text = ANY ((ARRAY['PenaltyImposed'::character varying, 'BreachDetected'::character varying])::text[]));


--
-- Name: ix_events_recorded_at_position; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_events_recorded_at_position ON public.events USING btree (recorded_at, "position");


--
-- Name: ix_events_register; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_events_register ON public.events USING btree ("position") WHERE ((type)::text = ANY ((ARRAY['PenaltyImposed'::character varying, 'BreachDetected'::character varying])::text[]));


--
-- Name: ix_events_register_time; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_events_register_time ON public.events USING btree (recorded_at, "position") WHERE ((type)::text = ANY ((ARRAY['PenaltyImposed'::character varying, 'BreachDetected'::character varying])::text[]));


--
-- Name: ix_events_stream_id_position; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_events_stream_id_position ON public.events USING btree (stream_id, "position");


--
-- Name: ix_events_token_id_position; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_events_token_id_position ON public.events USING btree (token_id, "position");


--
-- Name: ix_events_type_position; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_events_type_position ON public.events USING btree (type, "position");


--
-- Name: ix_events_type_stream_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_events_type_stream_id ON public.events USING btree (type, stream_id);


--
-- Name: ix_session_results_club_id_ended_at; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_session_results_club_id_ended_at ON public.session_results USING btree (club_id, ended_at);


--
-- Name: ix_session_results_club_id_member_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_session_results_club_id_member_id ON public.session_results USING btree (club_id, member_id);


--
-- Name: ix_sessions_club_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_sessions_club_id ON public.sessions USING btree (club_id);


--
-- Name: ix_tokens_club_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_tokens_club_id ON public.tokens USING btree (club_id);


--
-- Name: ix_tokens_member_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_tokens_member_id ON public.tokens USING btree (member_id);


--
-- Name: st_events_breach; Type: STATISTICS; Schema: public; Owner: -
--

CREATE STATISTICS public.st_events_breach (mcv) ON type, (payload ->> 'rule'::text) FROM public.events;


--
-- Name: st_events_offence; Type: STATISTICS; Schema: public; Owner: -
--

CREATE STATISTICS public.st_events_offence (mcv) ON type, (payload ->> 'offence'::text) FROM public.events;


--
-- Name: st_events_player; Type: STATISTICS; Schema: public; Owner: -
--

CREATE STATISTICS public.st_events_player (mcv) ON type, (payload ->> 'player'::text) FROM public.events;


--
-- Name: book_entries book_entries_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER book_entries_no_truncate BEFORE TRUNCATE ON public.book_entries FOR EACH STATEMENT EXECUTE FUNCTION public.book_entries_append_only();


--
-- Name: book_entries book_entries_no_update_or_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER book_entries_no_update_or_delete BEFORE DELETE OR UPDATE ON public.book_entries FOR EACH ROW EXECUTE FUNCTION public.book_entries_append_only();


--
-- Name: events events_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON public.events FOR EACH STATEMENT EXECUTE FUNCTION public.events_append_only();


--
-- Name: events events_no_update_or_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER events_no_update_or_delete BEFORE DELETE OR UPDATE ON public.events FOR EACH ROW EXECUTE FUNCTION public.events_append_only();


--
-- Name: book_entries fk_book_entries_club_id_clubs; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.book_entries
    ADD CONSTRAINT fk_book_entries_club_id_clubs FOREIGN KEY (club_id) REFERENCES public.clubs(id);


--
-- Name: book_entries fk_book_entries_member_id_members; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.book_entries
    ADD CONSTRAINT fk_book_entries_member_id_members FOREIGN KEY (member_id) REFERENCES public.members(id);


--
-- Name: book_entries fk_book_entries_token_id_tokens; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.book_entries
    ADD CONSTRAINT fk_book_entries_token_id_tokens FOREIGN KEY (token_id) REFERENCES public.tokens(id);


--
-- Name: deal_views fk_deal_views_session_id_sessions; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.deal_views
    ADD CONSTRAINT fk_deal_views_session_id_sessions FOREIGN KEY (session_id) REFERENCES public.sessions(id);


--
-- Name: events fk_events_member_id_members; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT fk_events_member_id_members FOREIGN KEY (member_id) REFERENCES public.members(id);


--
-- Name: events fk_events_token_id_tokens; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT fk_events_token_id_tokens FOREIGN KEY (token_id) REFERENCES public.tokens(id);


--
-- Name: members fk_members_club_id_clubs; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.members
    ADD CONSTRAINT fk_members_club_id_clubs FOREIGN KEY (club_id) REFERENCES public.clubs(id);


--
-- Name: session_results fk_session_results_session_id_sessions; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.session_results
    ADD CONSTRAINT fk_session_results_session_id_sessions FOREIGN KEY (session_id) REFERENCES public.sessions(id);


--
-- Name: snapshots fk_snapshots_session_id_sessions; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.snapshots
    ADD CONSTRAINT fk_snapshots_session_id_sessions FOREIGN KEY (session_id) REFERENCES public.sessions(id);


--
-- Name: tokens fk_tokens_club_id_clubs; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tokens
    ADD CONSTRAINT fk_tokens_club_id_clubs FOREIGN KEY (club_id) REFERENCES public.clubs(id);


--
-- Name: tokens fk_tokens_member_id_members; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tokens
    ADD CONSTRAINT fk_tokens_member_id_members FOREIGN KEY (member_id) REFERENCES public.members(id);


--
-- PostgreSQL database dump complete
--

\unrestrict Vv5MvTE1raKQOz1oZrg2V3AcCMLfEDqhROkoe9CPjD75mupFW6ltcWT6GUYkxdF

