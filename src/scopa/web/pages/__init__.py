"""The pages people read and fill in: the matches, their deals, the change log, a rematch and
the Play page, each rendered as HTML or as its JSON twin."""
