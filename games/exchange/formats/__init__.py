"""Files of plays from other apps, read into one neutral shape (``plays``) and written back:
BG Stats' export and single play, BoardGameGeek's XML API2 ``plays`` document. Pure reading and
writing: nothing here touches the database; matching and storing are ``games.exchange.imports``."""
