// The engine's requests, one table, written from py/briscola/protocol.py (which says what
// each fact means) by `python3 -m briscola.protocol > js/requests.js`: never edited by
// hand (tests/test_map.py fails when the two differ).

export const REQUESTS = Object.freeze({
  "ping": Object.freeze({"by": "bridge", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "own", "referee": "refused", "why": ""}),
  "catalog": Object.freeze({"by": "bridge", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "own", "referee": "refused", "why": ""}),
  "requests": Object.freeze({"by": "bridge", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "refused", "referee": "refused", "why": "the worker's own, read when it starts"}),
  "new_match": Object.freeze({"by": "bridge", "changes": true, "table": false, "seat": "viewer", "searches": false, "moves": false, "friend": "refused", "referee": "refused", "why": "another game: the page leaves the table with friends first"}),
  "load": Object.freeze({"by": "bridge", "changes": true, "table": false, "seat": "viewer", "searches": false, "moves": false, "friend": "refused", "referee": "refused", "why": "the worker refuses it anyway (it keeps the saves)"}),
  "state": Object.freeze({"by": "bridge", "changes": false, "table": true, "seat": "person", "searches": false, "moves": false, "friend": "host", "referee": "asks", "why": ""}),
  "friend_view": Object.freeze({"by": "bridge", "changes": false, "table": true, "seat": "person", "searches": false, "moves": false, "friend": "refused", "referee": "refused", "why": "the host's own: what travels to a friend's seat"}),
  "act": Object.freeze({"by": "bridge", "changes": true, "table": true, "seat": "actor", "searches": false, "moves": true, "friend": "host", "referee": "asks", "why": ""}),
  "bot_step": Object.freeze({"by": "bridge", "changes": true, "table": true, "seat": "viewer", "searches": true, "moves": true, "friend": "refused", "referee": "refused", "why": "the computers play in the host's worker"}),
  "hint": Object.freeze({"by": "bridge", "changes": false, "table": true, "seat": "person", "searches": true, "moves": false, "friend": "refused", "referee": "not_offered", "why": "the host's referee refuses it: a friend's page asks its own engine (hint_view)"}),
  "undo": Object.freeze({"by": "bridge", "changes": true, "table": true, "seat": "person", "searches": false, "moves": false, "friend": "refused", "referee": "refused", "why": "no undo at a table with friends"}),
  "tracker": Object.freeze({"by": "bridge", "changes": false, "table": true, "seat": "person", "searches": false, "moves": false, "friend": "refused", "referee": "not_offered", "why": "as the hint: tracker_view on the friend's own engine"}),
  "hint_view": Object.freeze({"by": "bridge", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "own", "referee": "refused", "why": ""}),
  "tracker_view": Object.freeze({"by": "bridge", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "own", "referee": "refused", "why": ""}),
  "review_load": Object.freeze({"by": "bridge", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "own", "referee": "refused", "why": ""}),
  "review_plan": Object.freeze({"by": "bridge", "changes": false, "table": true, "seat": "person", "searches": false, "moves": false, "friend": "review", "referee": "not_offered", "why": ""}),
  "review_decision": Object.freeze({"by": "bridge", "changes": false, "table": true, "seat": "person", "searches": true, "moves": false, "friend": "review", "referee": "not_offered", "why": ""}),
  "review_retry": Object.freeze({"by": "bridge", "changes": false, "table": true, "seat": "person", "searches": true, "moves": false, "friend": "review", "referee": "not_offered", "why": ""}),
  "review_summary": Object.freeze({"by": "bridge", "changes": false, "table": true, "seat": "person", "searches": false, "moves": false, "friend": "review", "referee": "not_offered", "why": ""}),
  "replay": Object.freeze({"by": "bridge", "changes": false, "table": true, "seat": "person", "searches": false, "moves": false, "friend": "review", "referee": "not_offered", "why": ""}),
  "puzzle": Object.freeze({"by": "bridge", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "own", "referee": "refused", "why": ""}),
  "puzzle_move": Object.freeze({"by": "bridge", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "own", "referee": "refused", "why": ""}),
  "duplicate": Object.freeze({"by": "bridge", "changes": true, "table": true, "seat": "viewer", "searches": false, "moves": false, "friend": "refused", "referee": "refused", "why": "no duplicate deal at a table with friends"}),
  "rate": Object.freeze({"by": "bridge", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "own", "referee": "refused", "why": ""}),
  "rating_levels": Object.freeze({"by": "bridge", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "own", "referee": "refused", "why": ""}),
  "history": Object.freeze({"by": "bridge", "changes": false, "table": true, "seat": "none", "searches": false, "moves": false, "friend": "refused", "referee": "refused", "why": "the match's deals are the host's (a friend reviews the deal just over)"}),
  "next_deal": Object.freeze({"by": "bridge", "changes": true, "table": true, "seat": "viewer", "searches": false, "moves": true, "friend": "refused", "referee": "refused", "why": "the host deals it"}),
  "set_seat": Object.freeze({"by": "bridge", "changes": true, "table": true, "seat": "viewer", "searches": false, "moves": false, "friend": "refused", "referee": "refused", "why": "the host's own: who plays a friend's seat"}),
  "trick_winner": Object.freeze({"by": "bridge", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "own", "referee": "refused", "why": ""}),
  "card_points": Object.freeze({"by": "bridge", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "own", "referee": "refused", "why": ""}),
  "check_rules": Object.freeze({"by": "bridge", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "own", "referee": "refused", "why": ""}),
  "model": Object.freeze({"by": "bridge", "changes": false, "table": true, "seat": "none", "searches": false, "moves": false, "friend": "refused", "referee": "refused", "why": "the worker's own, before a search"}),
  "fair_deal": Object.freeze({"by": "bridge", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "own", "referee": "refused", "why": ""}),
  "fair_open": Object.freeze({"by": "bridge", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "own", "referee": "refused", "why": ""}),
  "fair_act": Object.freeze({"by": "bridge", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "own", "referee": "refused", "why": ""}),
  "fair_view": Object.freeze({"by": "bridge", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "own", "referee": "refused", "why": ""}),
  "fair_bot": Object.freeze({"by": "bridge", "changes": false, "table": false, "seat": "none", "searches": true, "moves": false, "friend": "own", "referee": "refused", "why": ""}),
  "fair_check": Object.freeze({"by": "bridge", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "own", "referee": "refused", "why": ""}),
  "fair_save": Object.freeze({"by": "bridge", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "own", "referee": "refused", "why": ""}),
  "fair_state": Object.freeze({"by": "bridge", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "own", "referee": "refused", "why": ""}),
  "games": Object.freeze({"by": "worker", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "own", "referee": "refused", "why": ""}),
  "resume": Object.freeze({"by": "worker", "changes": true, "table": false, "seat": "viewer", "searches": false, "moves": false, "friend": "refused", "referee": "refused", "why": "another game: the page leaves the table with friends first"}),
  "import_save": Object.freeze({"by": "worker", "changes": true, "table": false, "seat": "viewer", "searches": false, "moves": false, "friend": "refused", "referee": "refused", "why": "another game: the page leaves the table with friends first"}),
  "set_meta": Object.freeze({"by": "worker", "changes": false, "table": true, "seat": "none", "searches": false, "moves": false, "friend": "own", "referee": "refused", "why": ""}),
  "check_save": Object.freeze({"by": "bridge", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "refused", "referee": "refused", "why": "the worker's own, for an import's games (data_stage); never the page's"}),
  "data_export": Object.freeze({"by": "worker", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "refused", "referee": "refused", "why": "a person's data: exported away from a table with friends"}),
  "data_stage": Object.freeze({"by": "worker", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "refused", "referee": "refused", "why": "a person's data: imported away from a table with friends"}),
  "data_commit": Object.freeze({"by": "worker", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "refused", "referee": "refused", "why": "a person's data: imported away from a table with friends"}),
  "data_cancel": Object.freeze({"by": "worker", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "refused", "referee": "refused", "why": "a person's data: imported away from a table with friends"}),
  "aside_list": Object.freeze({"by": "worker", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "refused", "referee": "refused", "why": "the records set aside: Settings, away from a table with friends"}),
  "aside_get": Object.freeze({"by": "worker", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "refused", "referee": "refused", "why": "the records set aside: Settings, away from a table with friends"}),
  "aside_remove": Object.freeze({"by": "worker", "changes": false, "table": false, "seat": "none", "searches": false, "moves": false, "friend": "refused", "referee": "refused", "why": "the records set aside: Settings, away from a table with friends"}),
});

export const TRAVELLING = Object.freeze(["seat", "view", "seats", "match", "card_points", "order", "summary", "round", "record"]);

/** The requests whose row has `fact` equal to `value`: where("referee", "asks"). */
export function where(fact, value) {
  return new Set(Object.keys(REQUESTS).filter((k) => REQUESTS[k][fact] === value));
}
