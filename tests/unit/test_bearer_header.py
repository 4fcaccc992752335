"""The bearer token a guarded route reads is the one Flask-HTTPAuth would read
(api/http/auth.py)."""

from __future__ import annotations

from flask import Flask
from hypothesis import given, settings
from hypothesis import strategies as st

from api.http.auth import auth, bearer_token

_APP = Flask(__name__)
# Header values as a client may send them: a scheme, separators and a token, or any text.
_SCHEMES = st.sampled_from(["Bearer", "bearer", "BEARER", "Basic", "Token", "", "Bearer\t"])
_TOKENS = st.text(alphabet=st.sampled_from("loo_0123abcdef=-_ \t,\"/+"), max_size=40)
_HEADERS = st.one_of(
    st.builds(lambda s, sep, t: f"{s}{sep}{t}", _SCHEMES, st.sampled_from([" ", "  ", "\t", ""]),
              _TOKENS),
    st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=255), max_size=40))


def flask_httpauth_token(header: str | None) -> str | None:
    environ = {} if header is None else {"HTTP_AUTHORIZATION": header}
    with _APP.test_request_context(environ_overrides=environ):
        found = auth.get_auth()
        return getattr(found, "token", None)


@settings(max_examples=400, deadline=None)
@given(_HEADERS)
def test_the_token_is_the_one_flask_httpauth_reads(header):
    assert bearer_token(header) == flask_httpauth_token(header)


def test_examples():
    token = "loo_0123456789abcdef_" + "x" * 43
    assert bearer_token(f"Bearer {token}") == token
    assert bearer_token(f"bearer   {token}\t") == token
    for header in (None, "", "Bearer", "Basic abc", f"Token {token}", "Bearer a=b",
                   f" Bearer {token}"):
        assert bearer_token(header) == flask_httpauth_token(header)
    assert bearer_token("Bearer a=b") is None
    assert bearer_token("Bearer abc==") == "abc=="
