"""The pages of "other games": placeholder replaced below."""
