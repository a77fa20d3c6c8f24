// @ts-check
/** Frequently asked questions (seed 000's questions, answered for this site and both games). */

/** @param {[string, string][]} qa */
const list = (qa) => qa.map(([q, a]) => `<details><summary>${q}</summary><p>${a}</p></details>`).join('\n');

const fr = `
<h1>Questions fréquentes</h1>
${list([
  ['Combien de personnes peuvent jouer ?', 'Aux dames chinoises, de 2 à 6 ; au jeu de dames, 2. Seul, vous pouvez affronter le CPU. Aux dames chinoises, les camps utilisés dépendent du nombre de personnes assises.'],
  ['Combien de temps dure une partie ?', 'Environ 20 minutes aux dames chinoises, davantage avec plus de monde. Une partie de dames dure souvent 20 à 40 minutes. Il n’y a pas de pendule.'],
  ['Faut-il un compte ou une inscription ?', 'Non, jamais. Vous choisissez un nom, retenu sur ce navigateur, et c’est tout. Le jeu est gratuit.'],
  ['Puis-je m’entraîner seul ?', 'Oui, appuyez sur « Contre le CPU ». Quatre niveaux : Facile, Normal, Difficile et Expert. Aux dames chinoises, choisissez aussi le nombre de joueurs (2 à 6) : les autres places sont tenues par des CPU.'],
  ['Comment trouver un adversaire ?', 'Dans « Jouer en ligne » sur l’accueil, touchez ce que vous voulez jouer (dames 10×10, 8×8 ou 12×12 ; dames chinoises à 2, 3, 4 ou 6, règles internationales ou japonaises ; en direct ou tour par tour). Dès qu’assez de personnes attendent la même chose, la partie est créée et commence ; vous pouvez attendre dans plusieurs files à la fois, la première partie trouvée annule les autres. Pendant l’attente, vous voyez qui attend quoi (les noms seulement) et pouvez annuler. Aux parties de 3 à 6 joueurs, « Compléter avec des CPU » donne les places libres à des CPU après l’attente choisie (60 s par défaut). Qui quitte souvent ses parties (victoire réclamée par l’adversaire après son absence) attend plus longtemps : 15 s de plus par partie quittée dans les dernières 24 h, au plus 2 min. « Ne plus jouer avec cette personne » vous tient à l’écart d’elle dans les files.'],
  ['Comment jouer avec des amis ?', 'Appuyez sur « Avec des amis » : une partie et un code de six caractères sont créés. Envoyez le lien, montrez le QR code ou lisez le code à voix haute ; chacun l’ouvre dans son navigateur ou le tape sur l’accueil. Quand toutes les places sont prises (l’hôte peut en donner à des CPU), l’hôte appuie sur « Commencer ». Le salon montre d’abord les places, qui est là et « Commencer » ; l’invitation (code, lien, QR code) est juste en dessous, ouverte tant qu’une place est libre.'],
  ['Quelle différence avec le reversi ou le shogi ?', 'Aux dames chinoises, on ne prend pas les pièces adverses : c’est une course pour amener toutes ses pièces au camp opposé. Au jeu de dames, au contraire, on prend les pièces adverses en sautant par-dessus, et la prise est obligatoire.'],
  ['La partie peut-elle être nulle ?', 'Aux dames chinoises, oui, si personne ne termine avant la limite de coups ou si la partie reste longtemps sans progrès. Au jeu de dames, oui : par accord (bouton « Proposer nulle »), par triple répétition, ou dans certaines finales de dames.'],
  ['Dames chinoises et Jeu du diamant sont-ils le même jeu ?', 'Oui, ce sont des noms du même jeu. Par défaut, 10 pièces sans roi. Les réglages proposent la variante japonaise avec 15 pièces et un roi.'],
  ['Puis-je entrer dans les autres camps ?', 'Oui avec les règles internationales. La variante japonaise interdit les camps d’autres couleurs, et l’option « Pas d’arrêt dans les camps étrangers » interdit d’y terminer son coup.'],
  ['Quelles règles de dames sont utilisées ?', 'Les règles internationales (FMJD) : prise obligatoire et majoritaire, pions qui prennent en arrière, dames qui volent. Le damier peut être 10×10 (international), 8×8 (brésilien) ou 12×12 (canadien).'],
  ['Plusieurs prises arrivent sur la même case : comment choisir ?', 'Le site vous demande de toucher une case intermédiaire du chemin voulu ; les pièces qui seraient prises sont entourées.'],
  ['Puis-je jouer à l’école ou au travail ?', 'Le jeu fonctionne dans le navigateur sans téléchargement ni installation, donc sur la plupart des réseaux scolaires ou professionnels qui bloquent les boutiques d’applications ou les téléchargements de jeux.'],
  ['Peut-on jouer sur téléphone ?', 'Oui, dans le navigateur, sans application. Touchez une pièce puis sa destination, ou faites-la glisser. Vous pouvez partager une partie avec des ordinateurs et des tablettes. L’option « Confirmer les coups » évite les erreurs de doigt.'],
  ['Peut-on jouer à deux ?', 'Oui, dès deux personnes, aux deux jeux.'],
  ['Peut-on jouer sans être disponibles en même temps ?', 'Oui. Choisissez « Tour par tour (avec notifications) » pour jouer un coup quand vous voulez et être averti de votre tour. Après 45 jours sans coup, la partie se termine automatiquement sans victoire ni défaite. Toutes vos parties sont dans <a href="/games">Mes parties</a>, celles où c’est à vous de jouer en premier.'],
  ['Que se passe-t-il si ma connexion coupe ?', 'Rien n’est perdu. Le site affiche « Reconnexion… », renvoie votre coup s’il n’était pas parti, et vous retrouvez votre place en rouvrant le lien sur le même navigateur. Sans réseau, la page d’une partie montre la dernière position connue, en lecture seule.'],
  ['Peut-on jouer avec un lecteur d’écran ?', 'Oui. Chaque case du damier et chaque trou de l’étoile a un nom (« case 31, pion blanc », « case 7, dame noire », « case 23, vide »), chaque coup est annoncé avec ses prises, et toute la partie se joue au clavier : Tab entre dans le plateau, les flèches passent d’une pièce à l’autre, Entrée choisit, Échap annule.'],
  ['Peut-on regarder une partie ?', 'Oui : toute personne qui a le lien et n’est pas assise regarde la partie en direct. Avant le début, elle peut prendre une place libre.'],
  ['Que deviennent mes données ?', 'Voir la page <a href="/data">Données et conservation</a> : pas de compte, pas de traceur, et des durées de conservation courtes.'],
])}
`;

const en = `
<h1>Frequently asked questions</h1>
${list([
  ['How many people can play?', 'Chinese checkers: 2 to 6; draughts: 2. On your own, you can play against the CPU. In Chinese checkers, the camps used depend on how many people sit down.'],
  ['How long does a game take?', 'About 20 minutes for Chinese checkers, longer with more people. A draughts game often takes 20 to 40 minutes. There is no clock.'],
  ['Do I need an account?', 'No, never. You pick a name, remembered on this browser, and that is all. It is free.'],
  ['Can I practise on my own?', 'Yes, press “Against the CPU”. Four levels: Easy, Normal, Hard and Expert. In Chinese checkers, also pick the number of players (2 to 6): the other seats are CPUs.'],
  ['How do I find an opponent?', 'In “Play online” on the home page, tap what you want to play (draughts 10×10, 8×8 or 12×12; Chinese checkers for 2, 3, 4 or 6, international or Japanese rules; live or turn by turn). As soon as enough people wait for the same thing, the game is created and starts; you may wait in several queues at once, and the first game found cancels the others. While waiting you see who waits for what (names only) and may cancel. In games of 3 to 6 players, “Fill with CPUs” gives the free seats to CPUs after the wait you chose (60 s by default). Someone who often leaves games (the win claimed by the opponent after they stayed away) waits longer: 15 s more per game left in the last 24 hours, at most 2 min. “Do not play with this person again” keeps you apart from them in the queues.'],
  ['How do I play with friends?', 'Press “With friends”: a game and a six-character code are created. Send the link, show the QR code or read the code aloud; everyone opens it in their browser or types it on the home page. When every seat is taken (the host may give some to CPUs), the host presses “Start”. The lobby shows the seats, who is there and “Start” first; the invitation (code, link, QR code) is just below, open while a seat is free.'],
  ['How is it different from reversi or shogi?', 'In Chinese checkers nothing is captured: it is a race to bring all your pieces to the opposite camp. In draughts, on the contrary, you capture by jumping over enemy pieces, and capturing is compulsory.'],
  ['Can a game be drawn?', 'Chinese checkers: yes, if nobody finishes before the move limit or if the game goes on for long without progress. Draughts: yes, by agreement (“Offer a draw”), by threefold repetition, or in some king endings.'],
  ['Are Chinese checkers and “Jeu du diamant” the same game?', 'Yes, they are names of the same game. By default 10 pieces and no king. The settings offer the Japanese variant with 15 pieces and a king.'],
  ['May I enter the other camps?', 'Yes with the international rules. The Japanese variant forbids camps of other colours, and the option “No resting in foreign camps” forbids ending a move there.'],
  ['Which draughts rules are used?', 'The international (FMJD) rules: compulsory maximum capture, men capture backwards, flying kings. The board may be 10×10 (International), 8×8 (Brazilian) or 12×12 (Canadian).'],
  ['Several captures end on the same square: how do I choose?', 'The site asks you to tap an intermediate square of the path you want; the pieces that would be captured are circled.'],
  ['Can I play at school or at work?', 'The game runs in the browser with nothing to download or install, so it works on most school or office networks that block app stores or game downloads.'],
  ['Can I play on a phone?', 'Yes, in the browser, no app. Tap a piece then its destination, or drag it. You can share a game with computers and tablets. The “Confirm moves” option prevents slips of the finger.'],
  ['Can two people play?', 'Yes, from two people, in both games.'],
  ['Can we play without being online at the same time?', 'Yes. Choose “Turn by turn (with notifications)” to play a move when you want and be told when it is your turn. After 45 days without a move, the game ends automatically with no winner and no loser. All your games are in <a href="/games">My games</a>, the ones where it is your turn first.'],
  ['What if my connection drops?', 'Nothing is lost. The site shows “Reconnecting…”, resends your move if it had not left, and reopening the link on the same browser puts you back in your seat. Without a network, a game’s page shows the last known position, read-only.'],
  ['Can I play with a screen reader?', 'Yes. Every square of the draughts board and every hole of the star has a name (“square 31, white man”, “square 7, black king”, “square 23, empty”), every move is announced with its captures, and the whole game is played with the keyboard: Tab enters the board, the arrow keys go from piece to piece, Enter picks, Escape cancels.'],
  ['Can people watch a game?', 'Yes: anyone with the link who is not seated watches live. Before the start, they may take a free seat.'],
  ['What happens to my data?', 'See <a href="/data">Data and retention</a>: no account, no tracker, and short retention times.'],
])}
`;

/** @type {Record<'fr'|'en', string>} */
export const FAQ = { fr, en };
