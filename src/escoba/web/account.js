// @ts-check
// The account page (/account). Signed out: sign in (username and password, or a passkey the
// browser offers: a discoverable credential, no username typed) and create an account
// (username and password, or username and a new passkey). Signed in: the username and a link
// to the profile, the offer to attach the matches this browser holds seats in, the passkeys
// (add one), the password (set or change), the account's data as a JSON download, sign out
// (here or everywhere), and deleting the account (the username typed again).
//
// Passkeys are WebAuthn credentials: the server's options come as JSON (base64url strings for
// the binary fields, as WebAuthn Level 3 writes them); the page turns them into buffers for
// navigator.credentials and the answer back into base64url JSON.
//
// data-testid for browser tests:
//   signed-out, signed-in       the two views (one is shown once the server answered)
//   account-notice              what just happened (signed out, the account deleted...)
//   sign-in-username, sign-in-password, sign-in, sign-in-passkey, sign-in-error
//   register-username, register-password, register, register-passkey, register-error
//   no-passkeys                 said when this browser cannot use passkeys here
//   account-username            the signed-in username; account-since, when it was made
//   profile-link                to /players/{username}
//   attach-offer                shown while this browser holds seats not yet attached:
//                               attach-text, the button attach, attach-result
//   passkey-list                the passkeys (each item passkey), add-passkey, passkey-status,
//                               passkey-error, passkeys-none
//   password-current (only with a password), password-new, password-save, password-status,
//   password-error
//   export                      the download of the account's data
//   sign-out, sign-out-everywhere
//   delete-confirm, delete-account, delete-error

import { accountState, refreshAccount, setAccount } from "./account-state.js";
import { mountHeader } from "./header.js";
import { formatDate, heldTokens, parseUtc } from "./history.js";
import { applyTexts, t, tn } from "./i18n.js";
import { allTickets, api, errorText } from "./rooms.js";

/** @param {string} id */
const $ = (id) => document.getElementById(id);
/** @param {string} id a form's field */
const field = (id) => /** @type {HTMLInputElement} */ ($(id));
/** @param {string} id a button's */
const byTestId = (id) => /** @type {HTMLButtonElement} */ (document.querySelector(`[data-testid=${id}]`));

const page = {
  account: undefined, // undefined until the server answered, then the account or null
  notice: null, // [key, params] of what just happened
  attached: null, // how many matches the last attach left on the account
};

// -- base64url and the WebAuthn JSON forms

function fromBase64url(text) {
  const base64 = String(text).replaceAll("-", "+").replaceAll("_", "/");
  const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
  const bytes = atob(padded);
  const buffer = new Uint8Array(bytes.length);
  for (let index = 0; index < bytes.length; index += 1) buffer[index] = bytes.charCodeAt(index);
  return buffer.buffer;
}

function toBase64url(buffer) {
  const bytes = new Uint8Array(buffer);
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function withIds(list) {
  return Array.isArray(list) ? list.map((entry) => ({ ...entry, id: fromBase64url(entry.id) })) : undefined;
}

function creationOptions(options) {
  const publicKey = {
    ...options,
    challenge: fromBase64url(options.challenge),
    user: { ...options.user, id: fromBase64url(options.user.id) },
  };
  if (options.excludeCredentials) publicKey.excludeCredentials = withIds(options.excludeCredentials);
  return publicKey;
}

function requestOptions(options) {
  const publicKey = { ...options, challenge: fromBase64url(options.challenge) };
  if (options.allowCredentials) publicKey.allowCredentials = withIds(options.allowCredentials);
  return publicKey;
}

function credentialJson(credential) {
  const { response } = credential;
  const answer = { clientDataJSON: toBase64url(response.clientDataJSON) };
  if (response.attestationObject) {
    answer.attestationObject = toBase64url(response.attestationObject);
    if (typeof response.getTransports === "function") answer.transports = response.getTransports();
  } else {
    answer.authenticatorData = toBase64url(response.authenticatorData);
    answer.signature = toBase64url(response.signature);
    answer.userHandle = response.userHandle ? toBase64url(response.userHandle) : null;
  }
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response: answer,
    authenticatorAttachment: credential.authenticatorAttachment ?? null,
    clientExtensionResults: credential.getClientExtensionResults?.() ?? {},
  };
}

function passkeysHere() {
  return Boolean(window.PublicKeyCredential && navigator.credentials && window.isSecureContext);
}

// A refusal in words: the server's codes by the catalogue; the browser's own for a passkey
// (cancelled, or already on this device).
function problemText(problem) {
  if (problem?.name === "NotAllowedError" || problem?.name === "AbortError") return t("account.passkey_cancelled");
  if (problem?.name === "InvalidStateError") return t("account.passkey_exists");
  if (problem?.name === "SecurityError" || problem?.name === "NotSupportedError") return t("account.no_passkeys");
  return errorText(problem?.code, String(problem?.message ?? problem));
}

// Make a passkey: for a new account (body {username}), or for the signed-in one (body {}).
async function makePasskey(body) {
  const { flow, options } = await api("/api/account/passkeys/options", { method: "POST", body });
  const credential = await navigator.credentials.create({ publicKey: creationOptions(options) });
  return api("/api/account/passkeys", { method: "POST", body: { flow, credential: credentialJson(credential) } });
}

// -- showing

function show(box, text) {
  box.textContent = text ?? "";
  box.hidden = !text;
}

function clearMessages() {
  for (const box of document.querySelectorAll("main .error, main .notice")) show(box, "");
}

// The newest time a ticket was stored when the matches were last attached, per account: the
// offer comes back only for seats taken since.
function attachedMarkKey(username) {
  return `escoba.attached.${username}`;
}

function attachedMark(username) {
  try {
    return Number(window.localStorage.getItem(attachedMarkKey(username))) || 0;
  } catch {
    return 0;
  }
}

function markAttached(username) {
  const newest = Math.max(0, ...allTickets().map((ticket) => ticket.at ?? 0));
  try {
    window.localStorage.setItem(attachedMarkKey(username), String(newest));
  } catch {
    /* not kept: offered again next time, which does no harm */
  }
}

function unattached(username) {
  const mark = attachedMark(username);
  return allTickets().filter((ticket) => (ticket.at ?? 0) > mark || mark === 0);
}

function renderSignedIn(account) {
  $("account-username").textContent = account.username;
  const since = parseUtc(account.created_at);
  $("account-since").textContent = since ? t("account.since", { date: formatDate(since) }) : "";
  /** @type {HTMLAnchorElement} */ ($("profile-link")).href = `/players/${encodeURIComponent(account.username)}`;
  field("password-username").value = account.username;

  const waiting = unattached(account.username);
  const attachSection = $("attach-section");
  attachSection.hidden = waiting.length === 0 && page.attached === null;
  $("attach-text").textContent = tn("account.attach_offer", waiting.length);
  $("attach-text").hidden = waiting.length === 0;
  byTestId("attach").hidden = waiting.length === 0;
  show($("attach-result"), page.attached === null ? "" : tn("account.attached", page.attached));

  const passkeys = Array.isArray(account.passkeys) ? account.passkeys : [];
  $("passkey-list").replaceChildren(...passkeys.map((passkey, index) => {
    const item = document.createElement("li");
    item.dataset.testid = "passkey";
    const made = parseUtc(passkey.created_at);
    item.textContent = made
      ? t("account.passkey_added", { n: index + 1, date: formatDate(made) })
      : t("account.passkey_n", { n: index + 1 });
    return item;
  }));
  $("passkeys-none").hidden = passkeys.length > 0;
  byTestId("add-passkey").disabled = !passkeysHere();

  const hasPassword = Boolean(account.has_password);
  $("password-title").textContent = t(hasPassword ? "account.password_change_title" : "account.password_set_title");
  $("password-save").textContent = t(hasPassword ? "account.password_change" : "account.password_set");
  $("password-current-field").hidden = !hasPassword;

  $("export-link").setAttribute("download", `escoba-${account.username}.json`);
  $("delete-confirm-label").textContent = t("account.delete_confirm", { username: account.username });
  byTestId("delete-account").disabled = field("delete-confirm").value !== account.username;
}

function render() {
  document.title = `${t("account.title")} · Escoba`;
  applyTexts(document.querySelector("main"));
  const account = page.account;
  $("account-loading").hidden = account !== undefined;
  $("signed-out").hidden = account !== null;
  $("signed-in").hidden = !account;
  const [key, params] = page.notice ?? [null, {}];
  show($("account-notice"), key ? t(key, params) : "");
  const passkeys = passkeysHere();
  $("no-passkeys").hidden = passkeys;
  for (const id of ["sign-in-passkey", "register-passkey"]) byTestId(id).disabled = !passkeys;
  if (account) renderSignedIn(account);
}

// The server said who is signed in now: draw the page for it.
function signedIn(data, notice) {
  const state = setAccount(data);
  page.account = state.account;
  page.notice = notice;
  page.attached = null;
  clearMessages();
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll("#signed-out input"))) input.value = "";
  render();
  $("account-title").focus();
}

function signedOut(notice) {
  setAccount();
  page.account = null;
  page.notice = notice;
  page.attached = null;
  clearMessages();
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll("#signed-in input"))) input.value = "";
  render();
  $("account-title").focus();
}

// Run `work` with `button` disabled; a refusal goes to `errorBox`, said in words.
async function busy(button, errorBox, work) {
  show(errorBox, "");
  button.disabled = true;
  try {
    await work();
  } catch (problem) {
    if (problem?.code === "sign_in_needed") {
      // The session ended elsewhere (signed out everywhere, the password changed): say so.
      page.account = (await refreshAccount()).account;
      page.notice = ["error.sign_in_needed", {}];
    } else show(errorBox, problemText(problem));
  } finally {
    button.disabled = false;
    render(); // enabled or disabled as the state says (a passkey button without passkeys)
  }
}

// -- signed out

function typed(id) {
  return field(id).value.trim();
}

function wireSignedOut() {
  $("sign-in-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const errorBox = $("sign-in-error");
    const username = typed("sign-in-username");
    const password = field("sign-in-password").value;
    if (!username || !password) {
      show(errorBox, t("account.need_both"));
      $(username ? "sign-in-password" : "sign-in-username").focus();
      return;
    }
    busy(byTestId("sign-in"), errorBox, async () => {
      const data = await api("/api/account/sign-in", { method: "POST", body: { username, password } });
      signedIn(data, ["account.welcome_back", { username: data.account.username }]);
    });
  });
  byTestId("sign-in-passkey").addEventListener("click", () => {
    busy(byTestId("sign-in-passkey"), $("sign-in-error"), async () => {
      const { flow, options } = await api("/api/account/sign-in/options", { method: "POST", body: {} });
      const credential = await navigator.credentials.get({ publicKey: requestOptions(options) });
      const data = await api("/api/account/sign-in/passkey", {
        method: "POST", body: { flow, credential: credentialJson(credential) },
      });
      signedIn(data, ["account.welcome_back", { username: data.account.username }]);
    });
  });

  $("register-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const errorBox = $("register-error");
    const username = typed("register-username");
    const password = field("register-password").value;
    if (!username) {
      show(errorBox, t("account.need_username"));
      $("register-username").focus();
      return;
    }
    if (!password) {
      show(errorBox, t("account.need_password"));
      $("register-password").focus();
      return;
    }
    busy(byTestId("register"), errorBox, async () => {
      const data = await api("/api/account/register", { method: "POST", body: { username, password } });
      signedIn(data, ["account.welcome", { username: data.account.username }]);
    });
  });
  byTestId("register-passkey").addEventListener("click", () => {
    const errorBox = $("register-error");
    const username = typed("register-username");
    if (!username) {
      show(errorBox, t("account.need_username"));
      $("register-username").focus();
      return;
    }
    busy(byTestId("register-passkey"), errorBox, async () => {
      const data = await makePasskey({ username });
      signedIn(data, ["account.welcome", { username: data.account.username }]);
    });
  });
}

// -- signed in

function wireSignedIn() {
  byTestId("attach").addEventListener("click", () => {
    const username = page.account?.username;
    busy(byTestId("attach"), $("attach-error"), async () => {
      const answer = await api("/api/account/attach", { method: "POST", body: { tokens: heldTokens() } });
      markAttached(username);
      page.attached = Number.isInteger(answer?.attached) ? answer.attached : 0;
    });
  });

  byTestId("add-passkey").addEventListener("click", () => {
    show($("passkey-status"), "");
    busy(byTestId("add-passkey"), $("passkey-error"), async () => {
      const data = await makePasskey({});
      const state = setAccount(data);
      page.account = state.account;
      render();
      show($("passkey-status"), t("account.passkey_saved"));
    });
  });

  $("password-form").addEventListener("submit", (event) => {
    event.preventDefault();
    show($("password-status"), "");
    const password = field("password-new").value;
    const hasPassword = Boolean(page.account?.has_password);
    const current = hasPassword ? field("password-current").value : null;
    if (!password || (hasPassword && !current)) {
      show($("password-error"), t(hasPassword ? "account.need_both_passwords" : "account.need_new_password"));
      $(hasPassword && !current ? "password-current" : "password-new").focus();
      return;
    }
    busy($("password-save"), $("password-error"), async () => {
      const data = await api("/api/account/password", { method: "PUT", body: { password, current } });
      const state = setAccount(data);
      page.account = state.account;
      field("password-new").value = "";
      field("password-current").value = "";
      render();
      show($("password-status"), t("account.password_saved"));
    });
  });

  byTestId("sign-out").addEventListener("click", () => {
    busy(byTestId("sign-out"), $("sign-out-error"), async () => {
      await api("/api/account/sign-out", { method: "POST", body: {} });
      signedOut(["account.signed_out", {}]);
    });
  });
  byTestId("sign-out-everywhere").addEventListener("click", () => {
    busy(byTestId("sign-out-everywhere"), $("sign-out-error"), async () => {
      await api("/api/account/sign-out-everywhere", { method: "POST", body: {} });
      signedOut(["account.signed_out_everywhere", {}]);
    });
  });

  $("delete-confirm").addEventListener("input", () => {
    byTestId("delete-account").disabled = field("delete-confirm").value !== page.account?.username;
  });
  $("delete-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const username = field("delete-confirm").value;
    if (username !== page.account?.username) return;
    busy(byTestId("delete-account"), $("delete-error"), async () => {
      await api("/api/account", { method: "DELETE", body: { username } });
      signedOut(["account.deleted", { username }]);
    });
  });
}

async function start() {
  mountHeader($("site-header"));
  wireSignedOut();
  wireSignedIn();
  window.addEventListener("escoba:prefs", render);
  // The state changed under the page (a stale token made rooms.js ask again): follow it.
  window.addEventListener("escoba:account", (event) => {
    if (page.account === undefined || (event.detail?.account?.username ?? null) === (page.account?.username ?? null)) return;
    page.account = event.detail?.account ?? null;
    page.notice = null;
    render();
  });
  render();
  const state = await accountState();
  page.account = state.account;
  render();
}

start();
