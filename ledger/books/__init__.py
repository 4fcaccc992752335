"""The club's books: the service, its reads, the tins, periods closed, Beancount."""
