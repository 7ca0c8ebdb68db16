// The in-app rules page, in Italian and English, written from the project's rule book.
// Content is data (headings, paragraphs, lists, tables) drawn with textContent only.

import { h, clear } from "./dom.js";
import { getLang, t } from "./i18n.js";

const RULES = {
  it: [
    ["p", "La Briscola si gioca in 2, 3, 4, 5 o 6 giocatori. Non c'è obbligo di rispondere al seme: conta chi prende le carte che valgono punti. Il mazzo vale 120 punti; chi ne fa più di 60 vince."],
    ["h", "Le carte"],
    ["p", "Mazzo italiano da 40 carte (Napoletane, Piacentine: cambiano solo i disegni) con quattro semi: Denari, Coppe, Spade, Bastoni. Con le carte francesi: Quadri ~ Denari, Cuori ~ Coppe, Picche ~ Spade, Fiori ~ Bastoni, senza 8, 9 e 10; la Donna sta al posto del Cavallo."],
    ["table", ["Carta", "Asso", "Tre", "Re", "Cavallo / Donna", "Fante", "7 6 5 4 2"],
      [["Punti", "11", "10", "4", "3", "2", "0"]]],
    ["p", "L'ordine di presa è lo stesso, dal più forte: Asso, Tre, Re, Cavallo, Fante, 7, 6, 5, 4, 2."],
    ["h", "La distribuzione"],
    ["list", [
      "Si gioca in senso antiorario. Il primo mazziere è scelto a caso e poi il mazzo passa al giocatore successivo.",
      "Ognuno riceve 3 carte. La carta seguente si gira: il suo seme è la briscola per tutta la mano. Resta scoperta sotto il tallone e sarà l'ultima carta pescata.",
      "In due: 40 carte. In tre: 39, si toglie un 2 (di solito quello di Denari). In quattro: due coppie, i compagni seduti di fronte. In sei: 36 carte (senza i 2), tre contro tre a posti alterni.",
    ]],
    ["h", "La presa"],
    ["list", [
      "Chi è di mano gioca una carta qualsiasi; gli altri, a turno, giocano qualsiasi carta: non c'è obbligo di rispondere né di briscolare.",
      "Prende la briscola più alta; se non c'è briscola, la carta più alta del seme di uscita. Una carta di un altro seme non prende mai.",
      "Chi prende raccoglie le carte (in squadra: nel mucchio della squadra), pesca per primo, poi pescano gli altri in ordine, e gioca la presa successiva.",
      "Finito il tallone (l'ultima carta è la briscola scoperta) si gioca senza pescare fino all'ultima carta.",
    ]],
    ["h", "Fine della mano e partite"],
    ["list", [
      "Si contano i punti delle carte prese, per giocatore o per squadra. Con più di 60 si vince; 60 a 60 è pareggio. In tre vince chi ha più punti (a pari merito si divide).",
      "Formati: una sola mano; al meglio di 3, 5 o 7 mani (vince chi arriva prima a 2, 3 o 4 mani vinte); oppure a chi arriva prima a 120 punti in più mani.",
      "Una mano pari si rigioca, oppure (regola della casa) conta come vinta da entrambi.",
    ]],
    ["h", "Varianti e regole della casa"],
    ["dl", [
      ["Riseppellire asso o tre", "Se la carta girata è un asso o un tre torna in mezzo al tallone e se ne gira un'altra."],
      ["Scambio col 2 di briscola", "Prima della prima presa chi ha il 2 di briscola può scambiarlo con la carta scoperta."],
      ["Scambio col 7 di briscola", "Chi ha il 7 di briscola e ha già fatto almeno una presa può, al suo turno, scambiarlo con la carta scoperta finché è sul tavolo e resta più di un giro di pesca."],
      ["I compagni vedono le carte", "Nelle partite a squadre i compagni si mostrano le carte quando il tallone è finito (le ultime prese). Si può scegliere: anche prima della prima presa, oppure mai."],
      ["Segnali", "In squadra si possono fare i segnali convenzionali: asso, tre, re, cavallo, fante di briscola, oppure un \"carico\" (asso o tre non di briscola). Non durante la prima presa. Gli avversari vedono che c'è stato un segnale, non quale."],
      ["Briscola scoperta", "Tutte le mani sono scoperte e si vede anche la prossima carta del tallone."],
      ["Briscola doppia (Briškula)", "Quattro carte a testa; ognuno gioca due volte per presa (un giro intero, poi un secondo); tutte le carte vanno a chi prende; ognuno pesca due carte."],
      ["Bisca portoghese", "Carte francesi; ordine Asso (11), 7 (10), Re (4), Fante (3), Donna (2), 6, 5, 4, 3, 2. La briscola è l'ultima carta del mazzo, girata."],
      ["Briškula bosniaca", "Mazzo francese da 32 carte: Asso, 10, Re, Donna, Fante, 9, 8, 7 (Asso 11, 10 vale 10, Re 4, Donna 3, Fante 2). Ognuno per sé, oppure in quattro due contro due. Se il tallone finisce a metà giro di pesca, la presa successiva la giocano solo quelli che hanno pescato, così le mani tornano pari."],
      ["Il tre al suo posto", "Il tre prende come un tre qualsiasi (Asso, Re, Cavallo, Fante, 7, 6, 5, 4, 3, 2) ma vale sempre 10 punti."],
      ["Ordine meridionale", "Con le carte francesi il Fante sta sopra la Donna e vale 3 punti, la Donna 2."],
    ]],
    ["h", "Briscola chiamata (cinque giocatori)"],
    ["list", [
      "Otto carte a testa, tutte le 40 carte, nessun tallone e nessuna carta girata. Fino alla fine dell'asta ognuno gioca per sé.",
      "Asta per carta: a partire dal giocatore dopo il mazziere, ognuno passa (per il resto dell'asta) o nomina un valore più basso dell'ultimo (Asso, Tre, Re, Cavallo, Fante, 7, 6, 5, 4, 2). Dopo il 2 si offre \"2 e N punti\", da 62 in su. L'asta finisce quando quattro hanno passato; il vincitore sceglie il seme: la carta chiamata è quel valore di quel seme, e quel seme è la briscola.",
      "Asta per punti (variante): si offrono punti (almeno 61, sempre di più) e il vincitore chiama una carta qualsiasi; il suo seme è la briscola.",
      "Chi ha la carta chiamata è il compagno segreto del chiamante; nessuno lo sa finché la carta non viene giocata. Il chiamante può anche chiamare una carta sua e giocare uno contro quattro.",
      "Il chiamante e il compagno devono fare 61 punti (o i punti offerti); senza rilanci a punti bastano 60.",
      "A carichi: un'offerta che chiude subito l'asta; chi la fa gioca da solo, senza briscola, e tutti devono rispondere al seme di uscita quando possono. Servono 61 punti.",
      "Punteggio: se il chiamante vince, +2 al chiamante, +1 al compagno, −1 a ogni avversario (al contrario se perde); da solo ±4. Sopra i 70 punti promessi il punteggio raddoppia, sopra gli 80 triplica. Cappotto (tutti i 120 punti a una parte): un punto in più a testa (il chiamante solo: +4 in più).",
    ]],
  ],
  en: [
    ["p", "Briscola is played by 2, 3, 4, 5 or 6 players. Nobody has to follow suit: what matters is who takes the cards that count. The deck holds 120 points; more than 60 wins."],
    ["h", "The cards"],
    ["p", "An Italian 40-card deck (Napoletane, Piacentine: only the pictures differ) with four suits: Coins (Denari), Cups (Coppe), Swords (Spade), Clubs (Bastoni). With French cards: Diamonds ~ Coins, Hearts ~ Cups, Spades ~ Swords, Clubs ~ Clubs, without 8, 9 and 10; the Queen stands where the Horse stands."],
    ["table", ["Card", "Ace", "Three", "King", "Horse / Queen", "Jack", "7 6 5 4 2"],
      [["Points", "11", "10", "4", "3", "2", "0"]]],
    ["p", "The order of strength is the same, highest first: Ace, Three, King, Horse, Jack, 7, 6, 5, 4, 2."],
    ["h", "The deal"],
    ["list", [
      "Play goes counter-clockwise. The first dealer is chosen at random; then the deal passes to the next player.",
      "Everyone gets 3 cards. The next card is turned face up: its suit is trump (\"briscola\") for the whole deal. It lies under the talon and is the last card drawn.",
      "Two players: 40 cards. Three: 39, one 2 is removed (usually the 2 of Coins). Four: two pairs, partners sitting opposite. Six: 36 cards (no 2s), three against three in alternate seats.",
    ]],
    ["h", "A trick"],
    ["list", [
      "The leader plays any card; the others, in turn, play any card: there is no obligation to follow suit or to trump.",
      "The highest trump wins; if no trump was played, the highest card of the suit led. A card of another suit never wins.",
      "The winner takes the cards (teams: into the team's pile), draws first, the others draw in order, and leads the next trick.",
      "When the talon is used up (its last card is the face-up trump) play goes on without drawing until the hands are empty.",
    ]],
    ["h", "End of a deal, matches"],
    ["list", [
      "Count the points of the cards taken, per player or per team. More than 60 wins; 60–60 is a draw. With three players the highest total wins (ties are shared).",
      "Formats: a single deal; best of 3, 5 or 7 deals (first to 2, 3 or 4 deals won); or first to 120 card points over several deals.",
      "A drawn deal is replayed or (house rule) counted as won by both sides.",
    ]],
    ["h", "Variants and house rules"],
    ["dl", [
      ["Re-bury an ace or three", "A turned-up ace or three goes back into the middle of the talon and the next card is turned."],
      ["Exchange with the 2 of trump", "Before the first trick, a player holding the 2 of trump may exchange it for the face-up card."],
      ["Exchange with the 7 of trump", "A player holding the 7 of trump who has won at least one trick may, on his turn, exchange it for the face-up card while it is on the table and more than one round of drawing remains."],
      ["Partners see each other's hands", "In team games partners show each other their hands once the talon is used up (the last tricks). Options: also before the first trick, or never."],
      ["Signals", "Partners may make the conventional signals: ace, three, king, horse, jack of trump, or a \"loaded\" card (a non-trump ace or three). Not during the first trick. Opponents see that a signal was made, not which."],
      ["Briscola scoperta", "All hands lie face up and the next talon card is visible."],
      ["Double Briškula", "Four cards each; everyone plays twice to each trick (one full round, then a second); all its cards go to the winner; everyone draws two."],
      ["Portuguese Bisca", "French deck; order Ace (11), 7 (10), King (4), Jack (3), Queen (2), 6, 5, 4, 3, 2. Trump is the bottom card of the shuffled deck, turned up."],
      ["Bosnian Briškula", "French 32-card deck: Ace, 10, King, Queen, Jack, 9, 8, 7 (Ace 11, 10 counts 10, King 4, Queen 3, Jack 2). Everyone alone, or four as two against two. When the talon runs out in the middle of a round of drawing, only the players who drew play the next trick, so the hands are equal again."],
      ["Three in natural order", "The three ranks as a plain three (Ace, King, Horse, Jack, 7, 6, 5, 4, 3, 2) but still counts 10 points."],
      ["Southern order", "With French cards the Jack ranks above the Queen and counts 3 points, the Queen 2."],
    ]],
    ["h", "Briscola Chiamata (five players)"],
    ["list", [
      "Eight cards each, all 40 cards, no talon and no turned-up card. Everyone plays alone until the auction is won.",
      "Auction by rank: starting after the dealer, each player passes (for the rest of the auction) or names a rank lower than the last one (Ace, Three, King, Horse, Jack, 7, 6, 5, 4, 2). After the 2, bids are \"2 and N points\", from 62 up. The auction ends when four have passed; the winner names the suit: the called card is that rank of that suit, and the suit is trump.",
      "Auction by points (option): bids are points (at least 61, each higher) and the winner calls any card; its suit is trump.",
      "The holder of the called card is the caller's secret partner; nobody knows until that card is played. The caller may call a card of his own and play one against four.",
      "The caller's side needs 61 points (or the points bid); with no point raise, 60 is enough.",
      "A carichi: a bid that ends the auction at once; the bidder plays alone, there is no trump, and everyone must follow the suit led when able. He needs 61.",
      "Scoring: if the caller's side wins, caller +2, partner +1, each opponent −1 (the reverse if it loses); alone ±4. A target above 70 doubles the score, above 80 triples it. Cappotto (one side takes all 120 points): one more point each (caller alone: +4 more).",
    ]],
  ],
};

export function renderRules(box) {
  clear(box);
  const lang = getLang();
  box.append(h("h2", { id: "rules-title", text: t("rules.title") }));
  const art = h("div", { class: "rules-text" });
  for (const [kind, a, b] of RULES[lang] || RULES.en) {
    if (kind === "h") art.append(h("h3", { text: a }));
    else if (kind === "p") art.append(h("p", { text: a }));
    else if (kind === "list") art.append(h("ul", {}, a.map((x) => h("li", { text: x }))));
    else if (kind === "dl") art.append(h("dl", {}, a.map(([dt, dd]) => [h("dt", { text: dt }), h("dd", { text: dd })])));
    else if (kind === "table") {
      art.append(h("div", { class: "table-wrap" }, h("table", { class: "points" },
        h("thead", {}, h("tr", {}, a.map((x) => h("th", { attrs: { scope: "col" }, text: x })))),
        h("tbody", {}, b.map((row) => h("tr", {}, row.map((x, i) => (i ? h("td", { text: x }) : h("th", { attrs: { scope: "row" }, text: x })))))))));
    }
  }
  box.append(art);
}
