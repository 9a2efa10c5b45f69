"""Crafting economy (AgentWorld-inspired): roles, a mine -> smelt -> craft pipeline, verifiers."""
