"""The release: the version at the top of CHANGELOG.md (a test holds the two together)."""

__version__ = "0.2.0"
