"""The versioned benchmark: its scenarios and tiers, the steering score and the leaderboard."""
