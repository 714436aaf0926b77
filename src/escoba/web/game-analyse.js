// @ts-check
// "Analyse" at the end of a match on the game screen: opens the replay of the match just
// finished asking for its analysis (/replay/<id>?analyse=1, replay-analysis.js). The room's
// state names the stored match (match_id); the replay opens once that match is among the
// finished matches of this seat's token (POST /api/matches/mine): it is stored as finished
// just after its last move, so it is asked again a few times until it is there.
//
// data-testid for browser tests: analyse-button (in the over box, beside the rematch).

import { t } from "./i18n.js";
import { api, errorText, loadTicket } from "./rooms.js";

const TRIES = 8;
const WAIT = 500; // ms between two asks

/**
 * The stored id of this room's match numbered `number` (`id` when the room names it), held
 * by `token`, once it is stored as finished; null until then.
 * @param {string} token
 * @param {number} number
 * @param {number | null | undefined} id
 * @returns {Promise<number | null>}
 */
async function storedMatch(token, number, id) {
  /** @type {Protocol.YourMatches} */
  const found = await api("/api/matches/mine", { method: "POST", body: { tokens: [token] } });
  const finished = found.matches ?? [];
  if (id !== null && id !== undefined) {
    return finished.some((match) => match.id === id) ? id : null;
  }
  // A server that does not name the match: a signed-in account's matches in other rooms come
  // too, some of the same number; the one just finished is the newest.
  const candidates = finished.filter((match) => match.number === number);
  candidates.sort((a, b) => String(b.finished_at).localeCompare(String(a.finished_at)));
  return candidates.length ? candidates[0].id : null;
}

/**
 * Open the analysis of the room's match numbered `number` (stored as `id`); `say` tells why
 * it could not be.
 * @param {string} room
 * @param {number} number
 * @param {number | null | undefined} id
 * @param {(text: string) => void} say
 */
export async function analyseMatch(room, number, id, say) {
  const ticket = loadTicket(room);
  if (!ticket) return;
  const button = /** @type {HTMLButtonElement | null} */ (document.getElementById("analyse-button"));
  if (button) button.disabled = true;
  try {
    for (let attempt = 0; attempt < TRIES; attempt += 1) {
      const stored = await storedMatch(ticket.token, number, id);
      if (stored !== null) {
        window.location.assign(`/replay/${encodeURIComponent(stored)}?analyse=1`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, WAIT));
    }
    say(t("game.analyse_missing"));
  } catch (problem) {
    const { code, message } = /** @type {{ code?: string, message?: string }} */ (problem ?? {});
    say(errorText(code ?? "network", message ?? String(problem)));
  } finally {
    if (button) button.disabled = false;
  }
}
