// Reasons from the engine are data, {code, params}: the words are here, in each language.
//
//   reasonText(reason, names) -> the sentence for reason.<code> in the current language
//
// `names` turns codes into words: {card(code), suit(letter), rank(letter)}. Parameters are
// named by what they hold: card, alt, card2 are card codes; suit, suit2 suit letters; rank a
// rank letter; numbers are written the language's way. An unknown code gets a generic
// sentence (never raw data); plain text (an older engine) is shown as it is.
import { t, has, getLang } from "./i18n.js";

const CARD_PARAMS = new Set(["card", "alt", "card2"]);
const SUIT_PARAMS = new Set(["suit", "suit2"]);
const RANK_PARAMS = new Set(["rank"]);

export function reasonText(reason, names) {
  if (!reason) return "";
  if (typeof reason === "string") return reason;
  const key = `reason.${reason.code}`;
  if (!has(key)) return t("reason.unknown");
  const vars = {};
  const fmt = new Intl.NumberFormat(getLang(), { maximumFractionDigits: 1 });
  for (const [k, v] of Object.entries(reason.params || {})) {
    try {
      if (CARD_PARAMS.has(k)) vars[k] = names.card(v);
      else if (SUIT_PARAMS.has(k)) vars[k] = names.suit(v);
      else if (RANK_PARAMS.has(k)) vars[k] = names.rank(v);
      else if (typeof v === "number") vars[k] = fmt.format(v);
      else vars[k] = String(v);
    } catch (err) {
      vars[k] = String(v);
    }
  }
  return t(key, vars);
}
