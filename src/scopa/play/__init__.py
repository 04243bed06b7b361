"""Playing against the computer: the game (pure) and its terminal front end."""
