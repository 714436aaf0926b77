// What the browser client adds to the browser's own types (tsconfig.json): the events the
// pages send each other on window, and the prefixed Web Audio of older Safari.

interface EscobaPrefsDetail {
  language?: string;
  deck?: string;
  /** The presets' options arrived (rooms.js). */
  presets?: boolean;
}

interface WindowEventMap {
  /** The account signed in or out (account-state.js). */
  "escoba:account": CustomEvent<{ account: Protocol.AccountView | null }>;
  /** The language, the deck or the presets' texts changed (prefs.js, rooms.js). */
  "escoba:prefs": CustomEvent<EscobaPrefsDetail>;
  /** The server became reachable again, or not (offline.js). */
  "escoba:server": CustomEvent<{ reachable: boolean }>;
}

interface Window {
  webkitAudioContext?: typeof AudioContext;
}

/** A room's match as the game screen draws it: the last state message's room and match. */
interface TableState {
  room: Protocol.RoomInfo;
  match: Protocol.MatchView;
}

/** A language of the texts, as the server names it (prefs.js's LANGUAGES). */
type Language = NonNullable<Protocol.HintRequest["language"]>;
