"""The Schelling segregation pilot (docs/worlds/schelling.md)."""
