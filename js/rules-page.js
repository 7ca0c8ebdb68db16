// The in-app rules page, in Italian and English, written from the rule book (docs/rules.md).
// Content is data (headings, paragraphs, lists, tables) drawn with textContent only.

import { h, clear } from "./dom.js";
import { getLang, t } from "./i18n.js";

const RULES = {
  it: [
    ["p", "La Briscola si gioca in 2, 3, 4, 5 o 6 giocatori. Non c'è obbligo di rispondere al seme: conta chi prende le carte che valgono punti. Il mazzo vale 120 punti; chi ne fa più di 60 vince."],
    ["h", "Le carte"],
    ["p", "Mazzo italiano da 40 carte (Napoletane, Piacentine, Siciliane, Trevisane, Triestine, Bergamasche, e le carte spagnole della brisca: cambiano solo i disegni e i numeri delle figure) con quattro semi: Denari, Coppe, Spade, Bastoni. Con le carte francesi: Quadri ~ Denari, Cuori ~ Coppe, Picche ~ Spade, Fiori ~ Bastoni, senza 8, 9 e 10; la Donna sta al posto del Cavallo."],
    ["table", ["Carta", "Asso", "Tre", "Re", "Cavallo / Donna", "Fante", "7 6 5 4 2"],
      [["Punti", "11", "10", "4", "3", "2", "0"]]],
    ["p", "L'ordine di presa è lo stesso, dal più forte: Asso, Tre, Re, Cavallo, Fante, 7, 6, 5, 4, 2."],
    ["h", "La distribuzione"],
    ["list", [
      "Si gioca in senso antiorario. Il primo mazziere è scelto a caso e poi il mazzo passa al giocatore successivo a ogni smazzata, anche da una partita alla successiva fra gli stessi giocatori.",
      "Ognuno riceve 3 carte. La carta seguente si gira: il suo seme è la briscola per tutta la smazzata. Resta scoperta sotto il tallone e sarà l'ultima carta pescata.",
      "In due: 40 carte. In tre: 39, si toglie un 2 (di solito quello di Denari). In quattro: due coppie, i compagni seduti di fronte. In sei: 36 carte (senza i 2), tre contro tre a posti alterni.",
    ]],
    ["h", "La presa"],
    ["list", [
      "Chi è di mano gioca una carta qualsiasi; gli altri, a turno, giocano qualsiasi carta: non c'è obbligo di rispondere né di briscolare.",
      "Prende la briscola più alta; se non c'è briscola, la carta più alta del seme di uscita. Una carta di un altro seme non prende mai.",
      "Chi prende raccoglie le carte (in squadra: nel mucchio della squadra), pesca per primo, poi pescano gli altri in ordine, e gioca la presa successiva.",
      "Finito il tallone (l'ultima carta è la briscola scoperta) si gioca senza pescare fino all'ultima carta.",
    ]],
    ["h", "Fine della smazzata e partite"],
    ["list", [
      "Si contano i punti delle carte prese, per giocatore o per squadra. Con più di 60 si vince; 60 a 60 è pareggio. In tre vince chi ha più punti (a pari merito si divide).",
      "Formati: una sola smazzata; al meglio di 3, 5 o 7 smazzate (vince chi arriva prima a 2, 3 o 4 smazzate vinte); chi vince prima 3, 5, 6 o 7 smazzate; oppure a chi arriva prima a 120 punti in più smazzate.",
      "Una smazzata pari si rigioca, anche quando la partita è di una sola smazzata: si gioca un'altra smazzata finché qualcuno vince. Oppure (regola della casa) conta come vinta da entrambi: allora una partita di una sola smazzata finisce pari.",
    ]],
    ["h", "Varianti e regole della casa"],
    ["dl", [
      ["Riseppellire asso o tre", "Se la carta girata è di uno dei due valori che contano più punti (asso e tre; asso e 7 nella bisca portoghese; asso e tre anche col tre al suo posto) torna in mezzo al tallone e se ne gira un'altra, finché non esce una carta diversa. Tutti sanno che è tornata nel tallone, nessuno sa dove, né poi chi la pesca."],
      ["Scambio col 2 di briscola", "Prima della prima presa chi ha il 2 di briscola può scambiarlo con la carta scoperta."],
      ["Scambio col 7 di briscola", "Chi ha il 7 di briscola e ha già fatto almeno una presa può, al suo turno, scambiarlo con la carta scoperta, qualunque essa sia, finché è sul tavolo e resta più di un giro di pesca."],
      ["I compagni vedono le carte", "Nelle partite a squadre i compagni si mostrano le carte quando il tallone è finito (le ultime prese). Si può scegliere: anche prima della prima presa, oppure mai."],
      ["Segnali", "In squadra si possono fare i segnali convenzionali: asso, tre, re, cavallo, fante di briscola (sempre queste cinque carte, qualunque sia l'ordine delle carte), oppure un \"carico\" (asso o tre non di briscola). Non durante la prima presa. Gli avversari vedono che c'è stato un segnale, non quale."],
      ["Briscola scoperta", "Tutte le mani sono scoperte e si vede anche la prossima carta del tallone."],
      ["Briscola doppia (Briškula)", "Quattro carte a testa; ognuno gioca due volte per presa (un giro intero, poi un secondo); tutte le carte vanno a chi prende; ognuno pesca due carte."],
      ["Bisca portoghese", "Carte francesi; ordine Asso (11), 7 (10), Re (4), Fante (3), Donna (2), 6, 5, 4, 3, 2. La briscola è l'ultima carta del mazzo, girata."],
      ["Briškula bosniaca", "Mazzo francese da 32 carte: Asso, 10, Re, Donna, Fante, 9, 8, 7 (Asso 11, 10 vale 10, Re 4, Donna 3, Fante 2). Da 2 a 6 giocatori ognuno per sé, oppure in quattro due contro due. Se il tallone finisce a metà giro di pesca, la presa successiva la giocano solo quelli che hanno pescato, così le mani tornano pari."],
      ["Brisca spagnola", "Si gioca con le carte spagnole (Oros, Copas, Espadas, Bastos; Sota, Caballo e Rey portano i numeri 10, 11 e 12) come la briscola. Chi ha già fatto una presa può, al suo turno e prima di giocare, dare il 7 di briscola per una carta scoperta più alta del sette (asso, tre, re, cavallo, fante), oppure il 2 di briscola per una carta scoperta dal sette in giù; un solo scambio per turno, finché la carta scoperta è sul tavolo. In tre si tolgono tutti e quattro i 2 (36 carte); in sei, tre contro tre, si gioca col mazzo da 48 carte, con gli 8 e i 9 tra il fante e il 7."],
      ["Bisca de Nove", "La bisca portoghese con nove carte a testa, in due: dopo ogni presa ognuno pesca una carta finché c'è tallone. La Bisca de Quatro è la bisca in quattro, due coppie."],
      ["Briškula croata e istriana", "Sulla costa croata si gioca con le carte triestine, di solito in quattro, due coppie; la partita la vince la prima coppia che vince quattro smazzate (al massimo sette). In tre o in sei si gioca con 36 carte, togliendo i quattro 4."],
      ["Il tre al suo posto", "Il tre prende come un tre qualsiasi (Asso, Re, Cavallo, Fante, 7, 6, 5, 4, 3, 2) ma vale sempre 10 punti."],
      ["Ordine meridionale", "Con le carte francesi il Fante sta sopra la Donna e vale 3 punti, la Donna 2."],
    ]],
    ["h", "Briscola chiamata (cinque giocatori)"],
    ["p", "Otto carte a testa, tutte le 40 carte (italiane o francesi, anche nell'ordine meridionale o col tre al suo posto, con gli stessi controlli delle altre varianti): niente tallone e niente carta girata. Prima si fa l'asta; chi la vince chiama una carta, e chi ha quella carta diventa il suo compagno segreto. Due contro tre, ma nessuno sa chi è il compagno finché la carta chiamata non viene giocata. La prima presa la apre il giocatore dopo il mazziere."],
    ["h4", "L'asta per carta (normale)"],
    ["list", [
      "Si parte dal giocatore dopo il mazziere e si gira in senso antiorario. A turno ognuno passa, e chi passa è fuori dall'asta per il resto della smazzata, oppure nomina un valore più basso dell'ultimo nominato: Asso, Tre, Re, Cavallo, Fante, 7, 6, 5, 4, 2. Chi chiama un valore più basso promette di più, perché il compagno avrà una carta meno forte.",
      "Dopo il 2 si rilancia a punti: \"2 e 62\", \"2 e 63\" e così via fino a 120; ogni offerta deve superare la precedente. È una regola della casa, attiva di solito: se è spenta, l'asta finisce al primo 2.",
      "L'asta finisce quando quattro hanno passato. Se i primi quattro passano senza offerte, il quinto deve offrire.",
    ]],
    ["h4", "L'asta per punti (variante)"],
    ["p", "Ogni offerta è un numero di punti che la squadra del chiamante promette di fare: almeno 61, e ogni offerta più alta della precedente (fino a 120). Si passa come nell'asta per carta."],
    ["h4", "La chiamata"],
    ["list", [
      "Asta per carta: chi vince sceglie il seme. La carta chiamata è il valore dell'ultima offerta in quel seme (dopo i rilanci a punti, il 2), e quel seme è la briscola.",
      "Asta per punti: chi vince chiama una carta qualsiasi delle 40; il suo seme è la briscola.",
      "La carta chiamata e la briscola sono annunciate a tutti. Chi ha in mano la carta chiamata è il compagno del chiamante, ma non lo dice: lo si scopre solo quando la gioca. Gli altri tre sono gli avversari.",
    ]],
    ["dl", [
      ["Chiamarsi da soli", "Il chiamante può chiamare una carta che ha lui: allora gioca da solo, uno contro quattro, e il punteggio è più alto (vedi la tabella). Gli altri lo scoprono quando gioca la carta chiamata."],
      ["Chiamata forzata", "Se chi vince un'asta per carta col 2 ha già il 2 del seme che vuole, può chiamare invece il valore più basso che gli manca in quel seme (per esempio il 5, se ha il 2 e il 4 di quel seme ma non il 5). Vale come una chiamata del 2."],
      ["A carichi", "Un'offerta speciale che chiude subito l'asta: chi la fa gioca da solo contro tutti, senza briscola, e in ogni presa tutti devono rispondere al seme di uscita se possono. Gli servono 61 punti."],
    ]],
    ["h4", "L'obiettivo"],
    ["list", [
      "Nell'asta per carta alla squadra del chiamante (chiamante e compagno) bastano 60 punti su 120: un 60 a 60 lo vince il chiamante.",
      "Se l'asta è arrivata ai punti (\"2 e 70\"), servono quei punti; nell'asta per punti, i punti offerti (almeno 61). A carichi servono 61.",
    ]],
    ["h4", "Il punteggio"],
    ["p", "Ogni smazzata assegna punti partita a ciascun giocatore:"],
    ["table", ["Risultato", "Chiamante", "Compagno", "Ogni avversario"],
      [["Obiettivo raggiunto", "+2", "+1", "−1"],
        ["Obiettivo mancato", "−2", "−1", "+1"],
        ["Da solo (chiamato da sé o a carichi): vince", "+4", "—", "−1"],
        ["Da solo: perde", "−4", "—", "+1"]]],
    ["list", [
      "Moltiplicatori nell'asta per carta (regola della casa, attiva di solito): se il rilancio a punti supera 70 tutti i punti della tabella raddoppiano, se supera 80 triplicano. Nell'asta per punti il punteggio è quello della tabella qualunque sia l'offerta; i moltiplicatori sono una regola della casa, spenta di solito.",
      "Cappotto: solo se la squadra del chiamante fa tutti i 120 punti: chiamante 2 in più, compagno 1 in più, ogni avversario 1 in meno (da solo: 4 in più, ogni avversario 1 in meno). Il bonus si aggiunge dopo il moltiplicatore, non si moltiplica. Se i 120 punti li fanno gli avversari non c'è bonus.",
      "Esempio: obiettivo 75 raggiunto, moltiplicatore ×2: chiamante +4, compagno +2, ogni avversario −2; con cappotto chiamante +6, compagno +3, ogni avversario −3.",
      "La somma dei punti di una smazzata è sempre zero. La partita dura un numero di smazzate stabilito, oppure finisce appena qualcuno arriva al punteggio scelto (10 di solito), anche se è a pari merito.",
      "Vincono i due punteggi migliori. Se uno solo ha il punteggio più alto, vincono con lui quelli a pari merito col secondo punteggio, se sono meno di quattro (se sono quattro, vince da solo). Se più giocatori hanno il punteggio più alto, vincono tutti loro.",
    ]],
  ],
  en: [
    ["p", "Briscola is played by 2, 3, 4, 5 or 6 players. Nobody has to follow suit: what matters is who takes the cards that count. The deck holds 120 points; more than 60 wins."],
    ["h", "The cards"],
    ["p", "An Italian 40-card deck (Napoletane, Piacentine, Siciliane, Trevisane, Triestine, Bergamasche, and Brisca's Spanish cards: only the pictures and the figures' numbers differ) with four suits: Coins (Denari), Cups (Coppe), Swords (Spade), Clubs (Bastoni). With French cards: Diamonds ~ Coins, Hearts ~ Cups, Spades ~ Swords, Clubs ~ Clubs, without 8, 9 and 10; the Queen stands where the Horse stands."],
    ["table", ["Card", "Ace", "Three", "King", "Horse / Queen", "Jack", "7 6 5 4 2"],
      [["Points", "11", "10", "4", "3", "2", "0"]]],
    ["p", "The order of strength is the same, highest first: Ace, Three, King, Horse, Jack, 7, 6, 5, 4, 2."],
    ["h", "The deal"],
    ["list", [
      "Play goes counter-clockwise. The first dealer is chosen at random; then the deal passes to the next player at every deal, and on from one match to the next between the same players.",
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
      "Formats: a single deal; best of 3, 5 or 7 deals (first to 2, 3 or 4 deals won); first to 3, 5, 6 or 7 won deals; or first to 120 card points over several deals.",
      "A drawn deal is replayed, in a single-deal game too: another deal is played until one side wins. Or (house rule) it counts as won by both sides: then a single-deal game ends drawn.",
    ]],
    ["h", "Variants and house rules"],
    ["dl", [
      ["Re-bury an ace or three", "A turned-up card of one of the two ranks worth the most points (ace and three; ace and 7 in Portuguese Bisca; still ace and three with the three in natural order) goes back into the middle of the talon and the next card is turned, until neither. Everyone knows it went back into the talon; nobody knows where, nor later who draws it."],
      ["Exchange with the 2 of trump", "Before the first trick, a player holding the 2 of trump may exchange it for the face-up card."],
      ["Exchange with the 7 of trump", "A player holding the 7 of trump who has won at least one trick may, on his turn, exchange it for the face-up card, whatever that card is, while it is on the table and more than one round of drawing remains."],
      ["Partners see each other's hands", "In team games partners show each other their hands once the talon is used up (the last tricks). Options: also before the first trick, or never."],
      ["Signals", "Partners may make the conventional signals: ace, three, king, horse, jack of trump (these five cards whatever the order of the cards), or a \"loaded\" card (a non-trump ace or three). Not during the first trick. Opponents see that a signal was made, not which."],
      ["Briscola scoperta", "All hands lie face up and the next talon card is visible."],
      ["Double Briškula", "Four cards each; everyone plays twice to each trick (one full round, then a second); all its cards go to the winner; everyone draws two."],
      ["Portuguese Bisca", "French deck; order Ace (11), 7 (10), King (4), Jack (3), Queen (2), 6, 5, 4, 3, 2. Trump is the bottom card of the shuffled deck, turned up."],
      ["Bosnian Briškula", "French 32-card deck: Ace, 10, King, Queen, Jack, 9, 8, 7 (Ace 11, 10 counts 10, King 4, Queen 3, Jack 2). Two to six players each alone, or four as two against two. When the talon runs out in the middle of a round of drawing, only the players who drew play the next trick, so the hands are equal again."],
      ["Spanish Brisca", "Played with Spanish cards (Oros, Copas, Espadas, Bastos; the Sota, Caballo and Rey print 10, 11 and 12) as Briscola. A player who has won a trick may, on his turn and before he plays, give the 7 of trump for a face-up card above the seven (ace, three, king, horse, jack), or the 2 of trump for a face-up card of seven or below; one exchange a turn, while the face-up card is on the table. Three players take out all four 2s (36 cards); six, three against three, play the 48-card deck, its 8s and 9s between the jack and the 7."],
      ["Bisca de Nove", "Portuguese Bisca with nine cards each, for two: after every trick each player draws a card while the talon lasts. Bisca de Quatro is Bisca for four, in two pairs."],
      ["Croatian and Istrian Briškula", "On the Croatian coast it is played with Triestine cards, mostly by four in two pairs; the match goes to the first pair to win four deals (seven at most). Three or six play with 36 cards, the four 4s taken out."],
      ["Three in natural order", "The three ranks as a plain three (Ace, King, Horse, Jack, 7, 6, 5, 4, 3, 2) but still counts 10 points."],
      ["Southern order", "With French cards the Jack ranks above the Queen and counts 3 points, the Queen 2."],
    ]],
    ["h", "Briscola Chiamata (five players)"],
    ["p", "Eight cards each, all 40 cards (Italian or French, in the southern order or with the three in natural order too, checked as in the other variants): no talon and no turned-up card. First comes an auction; its winner calls a card, and whoever holds that card becomes the caller's secret partner. Two against three, but nobody knows who the partner is until the called card is played. The player after the dealer leads the first trick."],
    ["h4", "The auction by rank (standard)"],
    ["list", [
      "It starts with the player after the dealer and goes counter-clockwise. In turn each player passes, and whoever passes is out of the auction for the rest of the deal, or names a rank lower than the last one named: Ace, Three, King, Horse, Jack, 7, 6, 5, 4, 2. A lower rank promises more, since the partner will hold a weaker card.",
      "After the 2, bids go up in points: \"2 and 62\", \"2 and 63\" and so on up to 120; each bid must beat the last. This is a house rule, on by default: off, the auction ends at the first 2.",
      "The auction ends when four have passed. If the first four pass without a bid, the fifth must bid.",
    ]],
    ["h4", "The auction by points (option)"],
    ["p", "Each bid is a number of points the caller's side promises to take: at least 61, each bid higher than the last (up to 120). Passing works as in the auction by rank."],
    ["h4", "The call"],
    ["list", [
      "Auction by rank: the winner names the suit. The called card is the rank of the last bid in that suit (after a raise in points, the 2), and that suit is trump.",
      "Auction by points: the winner calls any of the 40 cards; its suit is trump.",
      "The called card and the trump are announced to everyone. Whoever holds the called card is the caller's partner but does not say so: it comes out only when the card is played. The other three are the opponents.",
    ]],
    ["dl", [
      ["Calling yourself", "The caller may call a card he holds himself: then he plays alone, one against four, for a bigger score (see the table). The others find out when the called card is played."],
      ["Forced call", "If the winner of a rank auction at the 2 already holds the 2 of the suit he wants, he may instead call the lowest rank he lacks in that suit (say the 5, holding the 2 and the 4 of that suit but not the 5). It counts as a call of the 2."],
      ["A carichi", "A special bid that ends the auction at once: the bidder plays alone against everyone, with no trump, and in every trick everyone must follow the suit led when able. He needs 61 points."],
    ]],
    ["h4", "The target"],
    ["list", [
      "In the auction by rank, 60 is enough: the caller's side (caller and partner) needs 60 of the 120 points, and a 60–60 tie is the caller's.",
      "If the auction went on to points (\"2 and 70\"), the side needs those points; in the auction by points, the points bid (61 at least). A carichi needs 61.",
    ]],
    ["h4", "Scoring"],
    ["p", "Every deal gives game points to each player:"],
    ["table", ["Outcome", "Caller", "Partner", "Each opponent"],
      [["Target made", "+2", "+1", "−1"],
        ["Target missed", "−2", "−1", "+1"],
        ["Alone (self-call or a carichi): wins", "+4", "—", "−1"],
        ["Alone: loses", "−4", "—", "+1"]]],
    ["list", [
      "Multipliers in the auction by rank (a house rule, on by default): with a raise in points above 70 every figure of the table doubles, above 80 it triples. In the auction by points the table's figures apply whatever the bid; multipliers there are a house rule, off by default.",
      "Cappotto: only when the caller's side takes all 120 points: caller 2 more, partner 1 more, each opponent 1 less (alone: 4 more, each opponent 1 less). The bonus is added after the multiplier, not multiplied. When the opponents take all 120 there is no bonus.",
      "Example: target 75 made, multiplier ×2: caller +4, partner +2, each opponent −2; with a cappotto caller +6, partner +3, each opponent −3.",
      "The game points of a deal always add up to zero. A match lasts a set number of deals, or ends as soon as someone reaches the chosen score (10 by default), even when tied.",
      "The two best scores win. If one player alone has the best score, those sharing the next best score win with him when they are fewer than four (four tied second: he wins alone). If several players share the best score, they all win.",
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
    else if (kind === "h4") art.append(h("h4", { text: a }));
    else if (kind === "p") art.append(h("p", { text: a }));
    else if (kind === "list") art.append(h("ul", {}, a.map((x) => h("li", { text: x }))));
    else if (kind === "dl") art.append(h("dl", {}, a.map(([dt, dd]) => [h("dt", { text: dt }), h("dd", { text: dd })])));
    else if (kind === "table") {
      // a narrow window scrolls it sideways: reachable by keyboard, named by its heading
      const heading = [...art.querySelectorAll("h3, h4")].pop();
      art.append(h("div", { class: "table-wrap", attrs: { tabindex: "0", role: "region", "aria-label": heading ? heading.textContent : a[0] } }, h("table", { class: "points" },
        h("thead", {}, h("tr", {}, a.map((x) => h("th", { attrs: { scope: "col" }, text: x })))),
        h("tbody", {}, b.map((row) => h("tr", {}, row.map((x, i) => (i ? h("td", { text: x }) : h("th", { attrs: { scope: "row" }, text: x })))))))));
    }
  }
  box.append(art);
}
