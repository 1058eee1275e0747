"""Users: accounts, interests, guests, sessions and their activities, password resets, beta testers."""
