"""Experiments at scale: a validated suite of cases x seeds x repeats, run by an executor into a tidy table."""
