"""Solara dashboards: watch the reference and the treatment fork, round by round, for any world.

`paired_session` and `replay_session` produce the same rows as the run records, so one set of
renderers draws live runs, recorded runs and the animation export alike.
"""
