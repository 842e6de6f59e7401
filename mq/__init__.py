"""mq: a peer-to-peer LAN dungeon-crawl card-and-board game (see README.md)."""
