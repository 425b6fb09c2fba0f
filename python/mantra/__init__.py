"""mantra: wireless-aware transport for media streaming over multi-hop wireless networks, and its lab."""
