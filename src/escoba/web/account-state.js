// @ts-check
// Who is signed in on this browser, asked once per page (GET /api/account): {account, csrf},
// where account is null when signed out, and csrf the token every request that changes
// something must carry while signed in (the X-CSRF-Token header: rooms.js api() adds it).
// The session itself is an HttpOnly cookie the page never sees.
//
// The account page (account.js) hands over each new state (after signing in, registering,
// signing out); pages listen for "escoba:account" on window (detail: {account}) to redraw.

const SIGNED_OUT = Object.freeze({ account: null, csrf: null });

/** @type {Promise<Protocol.AccountAnswer> | null} */
let asked = null; // the Promise of the state, once asked
/** @type {Protocol.AccountAnswer | null} */
let known = null; // the state, once answered

/** @returns {Promise<Protocol.AccountAnswer | null>} */
async function download() {
  let response;
  try {
    response = await fetch("/api/account", { cache: "no-store", headers: { Accept: "application/json" } });
  } catch {
    return null; // the server cannot be reached: asked again next time
  }
  if (!response.ok) return null;
  try {
    return normalised(await response.json());
  } catch {
    return null;
  }
}

/**
 * @param {any} data the server's answer, checked
 * @returns {Protocol.AccountAnswer}
 */
function normalised(data) {
  const account = data?.account && typeof data.account.username === "string" ? data.account : null;
  const csrf = account && typeof data?.csrf === "string" ? data.csrf : null;
  return { account, csrf };
}

// The state as the server last said it; signed out when it could not be asked (a request that
// needs the token is then refused with bad_csrf, and api() asks again).
export function accountState() {
  if (known) return Promise.resolve(known);
  asked ??= download().then((state) => {
    asked = null;
    if (state) remember(state);
    return state ?? SIGNED_OUT;
  });
  return asked;
}

// Ask the server again (the session may have changed in another tab).
export function refreshAccount() {
  known = null;
  return accountState();
}

// The state now, without asking: null until the server answered.
export function currentAccount() {
  return known;
}

/** @param {Protocol.AccountAnswer} state */
function remember(state) {
  known = state;
  window.dispatchEvent(new CustomEvent("escoba:account", { detail: { account: state.account } }));
}

// A new state from an answer of the server ({account, csrf}, as sign-in, register and the
// account's changes return it); signed out with no argument.
export function setAccount(data = SIGNED_OUT) {
  const state = normalised(data);
  remember(state);
  return state;
}

// The headers a request that changes something adds: the token while signed in.
/** @returns {Promise<{ [header: string]: string }>} */
export async function csrfHeaders() {
  const { csrf } = await accountState();
  return csrf ? { "X-CSRF-Token": csrf } : {};
}

// The server is back after it could not be reached: ask again (signed out was only a guess),
// and the pages redraw on "escoba:account".
window.addEventListener("escoba:server", (event) => {
  if (event.detail?.reachable) refreshAccount();
});
