"""Controllers: who decides for the influence agents (rule, random, heuristic, LLM, replay)."""
