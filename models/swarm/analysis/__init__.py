"""SwarmBench's analyses over an experiment folder (`mam-bench report DIR --analysis swarm`)."""
