"""The Schelling segregation pilot (spec/schelling.md)."""
