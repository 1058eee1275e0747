"""Analytics: one append-only events table (views, likes, saves, shares, follows, ad impressions
and clicks), rollups per tour, ad and creator computed by a periodic task, the creators' analytics
calls read from the rollups plus the live part, and the throttled live push."""
