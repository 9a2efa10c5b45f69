"""Test helpers shared by the suites (loopback servers, fakes)."""
