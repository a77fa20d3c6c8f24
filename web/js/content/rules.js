// @ts-check
/** The full rules of both games (RULES.md), in French and English. Static text, no user input. */

const fr = `
<h1>Règles</h1>
<nav class="toc" aria-label="Sommaire"><a class="btn small" href="#cc">Dames chinoises</a><a class="btn small" href="#draughts">Jeu de dames</a><a class="btn small" href="#platform">Salles de jeu</a><a class="btn small" href="#notation">Notation</a></nav>

<h2 id="cc">Dames chinoises (« Jeu du diamant »)</h2>
<h3>Le plateau</h3>
<ul>
<li>Une étoile à six branches de <strong>121 trous</strong> : un hexagone central de 61 trous (5 par côté) et six pointes, les <em>camps</em>, triangles de 10 trous (rangées de 1, 2, 3 et 4).</li>
<li>Les camps sont numérotés de 0 à 5 en faisant le tour de l’étoile ; le camp <em>i</em> fait face au camp <em>i</em>+3. Chaque joueur voit son camp de départ en bas de l’écran.</li>
<li>Camps de 15 pièces (à 2 ou 3 joueurs avec un jeu chacun, en option, et toujours en variante japonaise) : le triangle de côté 5, c’est-à-dire la pointe plus la rangée de 5 trous du bord de l’hexagone qui lui fait face. Deux camps voisins de 15 trous partagent un trou de coin ; c’est permis.</li>
</ul>
<h3>Places et camps</h3>
<table>
<tr><th>Joueurs</th><th>Camps utilisés (l’arrivée est toujours le camp opposé)</th></tr>
<tr><td>2</td><td>0 et 3, face à face. Options : chacun mène <strong>2 jeux</strong> (camps 0 et 1 contre 3 et 4) ou <strong>3 jeux</strong> (0, 1, 2 contre 3, 4, 5).</td></tr>
<tr><td>3</td><td>0, 2 et 4 (les arrivées sont vides au départ). Option : chacun mène 2 jeux (0-1, 2-3, 4-5).</td></tr>
<tr><td>4</td><td>0, 3, 1 et 4 : deux paires de camps opposés.</td></tr>
<tr><td>5</td><td>0 à 4 (un camp reste vide). Permis par défaut ; un réglage peut l’interdire.</td></tr>
<tr><td>6</td><td>Les six camps.</td></tr>
</table>
<ul>
<li>Les tours suivent le sens horaire à partir de la première personne assise (ordre croissant des camps). Par défaut, chaque nouvelle partie de la même salle commence par le siège suivant (« Changer qui commence »). Option : premier joueur tiré au sort.</li>
<li>Les camps inutilisés sont vides par défaut ; option : les remplir de pièces inertes, qui ne bougent jamais et n’appartiennent à personne.</li>
<li>Qui mène plusieurs jeux déplace à son tour une pièce de n’importe lequel de ses jeux, et a terminé quand tous ses jeux sont arrivés.</li>
</ul>
<h3>Un coup</h3>
<ul>
<li>Une de vos pièces par tour : soit un <strong>pas</strong> vers un trou voisin vide, soit un ou plusieurs <strong>sauts</strong> par-dessus une pièce voisine (de n’importe quelle couleur, les vôtres comprises) vers le trou vide juste derrière, en ligne droite.</li>
<li>La même pièce peut enchaîner d’autres sauts dans le même tour, chacun dans n’importe laquelle des six directions, et s’arrêter après n’importe quel saut. Un pas et un saut ne se combinent jamais. Rien n’est pris : les pièces sautées restent. Une chaîne ne repasse pas deux fois par le même trou.</li>
<li>Vous devez jouer si vous le pouvez. <strong>Votre tour n’est passé automatiquement que si vous n’avez aucun coup légal</strong> ; le site l’annonce.</li>
<li>Les pièces peuvent entrer dans tous les camps et les traverser, sauf options ci-dessous.</li>
</ul>
<h3>Arrivée, places et fin</h3>
<ul>
<li><strong>Antiblocage</strong> (activé par défaut) : vous avez terminé quand votre camp d’arrivée est entièrement rempli et qu’au moins une pièce y est à vous, même si des pièces adverses y sont aussi. Désactivé : tous les trous de l’arrivée doivent porter vos pièces.</li>
<li><strong>Jouer jusqu’au bout</strong> (activé par défaut), à partir de 3 joueurs : après la première arrivée, les autres continuent jusqu’à ce que toutes les places soient décidées. Désactivé : la partie s’arrête à la première arrivée et les autres sont classés comme pour la stagnation.</li>
<li>Les pièces d’un joueur arrivé restent sur le plateau mais ne bougent plus ; ses tours sont sautés.</li>
<li><strong>Limite de coups</strong> (réglage, 200 coups par joueur par défaut) : si elle est atteinte avant que tout le monde ait terminé, les joueurs non arrivés font nulle pour les places restantes.</li>
<li><strong>Stagnation</strong> (réglage, 30 tours par défaut) : si pendant ce nombre de tours aucun joueur non arrivé n’améliore sa meilleure progression, la partie s’arrête ; les joueurs non arrivés sont classés par nombre de pièces dans leur arrivée, puis par la plus petite distance totale restante, les égalités partageant une place.</li>
<li><strong>Abandon</strong> : à 2 joueurs, l’autre gagne. À 3 ou plus, celui qui abandonne prend la dernière place libre, ses pièces sont retirées du plateau et les autres continuent.</li>
<li>Une partie sans aucun coup pendant 45 jours se termine automatiquement, sans gagnant ni perdant.</li>
</ul>
<h3>Règles optionnelles (désactivées par défaut)</h3>
<ul>
<li><strong>Pas d’arrêt dans les camps étrangers</strong> : une pièce ne termine son coup que dans son camp de départ, l’hexagone central ou son arrivée ; elle peut traverser les autres camps au milieu d’une chaîne de sauts.</li>
<li><strong>Sortie obligatoire</strong> (bloquer est interdit) : si votre camp de départ est plein, avec certaines de vos pièces, et que le joueur dont c’est l’arrivée n’a aucun coup qui y entre, vous devez jouer un coup qui sort une de vos pièces de ce camp si vous en avez un.</li>
<li><strong>Pas de sortie de l’arrivée</strong> : une pièce arrivée dans son camp d’arrivée ne bouge plus qu’à l’intérieur.</li>
<li><strong>Échange (règle Masters, 2002)</strong> : si une de vos pièces pourrait entrer par un pas ou un saut dans un trou de votre arrivée occupé par une pièce adverse, vous pouvez échanger les deux pièces. Incompatible avec l’antiblocage : la salle choisit l’une des deux.</li>
<li><strong>Sauts longs</strong> : une pièce peut sauter une pièce isolée à n’importe quelle distance sur une ligne, en atterrissant aussi loin derrière elle qu’elle était devant, tous les trous entre eux étant vides.</li>
</ul>
<h3>Type de règles</h3>
<ul>
<li><strong>Internationales</strong> (par défaut) : 10 pièces, pas de roi, 2 à 6 joueurs, options ci-dessus.</li>
<li><strong>Japonaises</strong> : 2 ou 3 joueurs (à partir de 4, les règles internationales s’appliquent), 15 pièces par joueur dont un <strong>roi</strong>, qui commence sur la pointe de son camp. Le roi peut sauter une rangée droite entière de pièces contiguës (une ou plusieurs) et atterrir sur le premier trou vide derrière ; les chaînes sont permises. <strong>Aucune pièce ne peut sauter un roi</strong>, pas même un roi. On n’a terminé que si le roi est sur la pointe de l’arrivée et que les autres trous sont remplis comme l’exige la règle d’arrivée. Les pièces ne peuvent pas se poser dans les camps des autres couleurs (départs ou arrivées des autres joueurs), même au milieu d’une chaîne.</li>
</ul>

<h2 id="draughts">Jeu de dames international et ses variantes</h2>
<ul>
<li>Variantes : <strong>internationale</strong> 10×10, 20 pions chacun ; <strong>brésilienne</strong> 8×8, 12 pions, mêmes règles ; <strong>canadienne</strong> 12×12, 30 pions, mêmes règles.</li>
<li>On joue sur les cases foncées ; la case en bas à gauche de chaque joueur est foncée. Les Blancs commencent. Les cases sont numérotées comme en notation FMJD : 1 en haut à gauche côté Noirs … 50 en bas à droite côté Blancs (10×10).</li>
<li>Un pion avance d’une case en diagonale ; il <strong>prend en avant et en arrière</strong>. Les dames <strong>volent</strong> : elles se déplacent et prennent le long d’une diagonale, sur autant de cases que libres.</li>
<li>La <strong>prise est obligatoire</strong>, et la <strong>prise majoritaire</strong> aussi : il faut jouer la suite qui prend le plus de pièces (dames et pions comptent pareil) ; entre maxima égaux, libre choix.</li>
<li>Les pièces prises ne sont retirées qu’à la fin de la rafle : une pièce ne peut être sautée deux fois ; une case vide peut être traversée plusieurs fois.</li>
<li>Un pion n’est promu dame que si son coup <strong>se termine</strong> sur la dernière rangée ; la traverser au milieu d’une rafle ne suffit pas.</li>
<li>Nulles (FMJD) : par accord ; triple répétition de la même position avec le même joueur au trait ; 25 coups successifs de chaque camp avec seulement des coups de dames, sans prise ni coup de pion ; 3 pièces dont au moins une dame (ou moins) contre une dame seule : nulle après 16 coups de chaque camp (la salle peut choisir 10) ; 2 pièces ou moins (dont au moins une dame) contre une dame seule : 5 coups de chaque camp.</li>
<li>Un joueur sans coup légal, ou sans pièce, perd. Abandonner fait perdre.</li>
<li>Notation : positions en FEN (<code>W:W31,32,K45:B1,2,K10</code>), coups en PDN (<code>32-28</code>, prises <code>28x19x10</code> avec chaque case d’arrivée).</li>
<li>Quand plusieurs rafles différentes finissent sur la même case, touchez une case intermédiaire pour choisir le chemin.</li>
</ul>

<h2 id="platform">Salles de jeu</h2>
<ul>
<li>2 à 6 places pour les dames chinoises, 2 pour le jeu de dames ; une place est tenue par une personne ou par un CPU de la force choisie (Facile, Normal, Difficile, Expert).</li>
<li>Aucun compte, aucune inscription. Une salle a un code de six caractères ; son lien et son QR code font entrer les autres.</li>
<li>L’hôte (qui a créé la salle) choisit les règles, peut remplir les places libres avec des CPU, puis appuie sur « Commencer » quand toutes les places sont prises.</li>
<li>On peut jouer en direct (tout le monde présent) ou à son rythme : la partie reste ouverte et chacun revient par le lien ; 45 jours sans coup terminent la partie sans résultat.</li>
<li>« Montrer les coups légaux » (activé par défaut) marque les cases accessibles après le choix d’une pièce. « Confirmer les coups » montre le coup et attend un appui sur ✓.</li>
</ul>
<h2 id="notation">Notation des coups et parties enregistrées</h2>
<p><strong>Dames chinoises.</strong> Les 121 trous sont numérotés rangée par rangée, de gauche à droite, depuis la pointe du camp du haut (trou 1) jusqu’à la pointe du camp du bas (trou 121), l’étoile vue dans son orientation de référence (schéma ci-dessous ; le centre est le trou 61). Un coup s’écrit avec les trous de son chemin : <code>12-23</code> pour un pas, <code>4-15-37</code> pour deux sauts enchaînés. En partie, l’étoile est tournée vers vous : le bouton « Numéros des trous » affiche les numéros sur le plateau, et les trous de départ et d’arrivée du dernier coup sont toujours étiquetés.</p>
<div id="notation-star" class="notation-star"></div>
<p><strong>Jeu de dames.</strong> Notation officielle FMJD : les cases foncées sont numérotées de gauche à droite et de haut en bas, les Noirs en haut (1 à 50 sur le 10×10, 1 à 32 sur le 8×8, 1 à 72 sur le 12×12), comme le plateau les affiche. Un déplacement s’écrit <code>32-28</code>, une prise <code>28x19x10</code> avec chaque case d’arrivée.</p>
<ul>
<li>Dans la liste des coups, touchez un coup pour revoir la position après lui ; « Revenir à la partie » ramène au plateau en cours. Une partie terminée s’ouvre sur sa dernière position avec les boutons début, précédent, suivant, fin et lecture automatique (au clavier : flèches ← →, Début, Fin, Espace ; sur mobile : glissez sur le plateau).</li>
<li>Une partie se télécharge : au format PDN standard pour le jeu de dames (balises Event, Site, Date, Round, White, Black, Result, GameType et FEN), dans un fichier texte pour les dames chinoises (les balises puis un coup par ligne, en numéros de trous).</li>
<li>Jeu de dames : « Importer une position » (page d’accueil) lit une partie PDN ou une position FEN comme <code>W:W31,32:B1,K2</code> et la fait jouer contre le CPU ou avec un ami, à partir de la position atteinte ; vous jouez le camp au trait.</li>
</ul>
`;

const en = `
<h1>Rules</h1>
<nav class="toc" aria-label="Contents"><a class="btn small" href="#cc">Chinese checkers</a><a class="btn small" href="#draughts">Draughts</a><a class="btn small" href="#platform">Game rooms</a><a class="btn small" href="#notation">Notation</a></nav>

<h2 id="cc">Chinese checkers</h2>
<h3>The board</h3>
<ul>
<li>A six-pointed star of <strong>121 holes</strong>: a central hexagon of 61 holes (5 per side) and six points, the <em>camps</em>, each a triangle of 10 holes (rows of 1, 2, 3 and 4).</li>
<li>Camps are numbered 0 to 5 going round the star; camp <em>i</em> faces camp <em>i</em>+3. Each player sees their own start camp at the bottom of the screen.</li>
<li>15-piece camps (2 or 3 players with one set each, as an option, and always in the Japanese rules): the triangle of side 5, i.e. the point plus the hexagon’s edge row of 5 holes facing it. Two neighbouring 15-hole camps share a corner hole; that is allowed.</li>
</ul>
<h3>Seats and camps</h3>
<table>
<tr><th>Players</th><th>Camps used (the destination is always the opposite camp)</th></tr>
<tr><td>2</td><td>0 and 3, face to face. Options: each player leads <strong>2 sets</strong> (camps 0, 1 against 3, 4) or <strong>3 sets</strong> (0, 1, 2 against 3, 4, 5).</td></tr>
<tr><td>3</td><td>0, 2 and 4 (destinations start empty). Option: each leads 2 sets (0-1, 2-3, 4-5).</td></tr>
<tr><td>4</td><td>0, 3, 1 and 4: two pairs of opposite camps.</td></tr>
<tr><td>5</td><td>0 to 4 (one camp stays empty). Allowed by default; a setting may forbid it.</td></tr>
<tr><td>6</td><td>All six camps.</td></tr>
</table>
<ul>
<li>Turns go clockwise from the first seated player (increasing camp number). By default each new game in the same room starts with the next seat (“Change who starts”). Option: random first player.</li>
<li>Unused camps are empty by default; option: fill them with inert pieces that never move and belong to nobody.</li>
<li>A player leading several sets moves one piece of any of their sets per turn, and has finished when every set has.</li>
</ul>
<h3>A move</h3>
<ul>
<li>One of your pieces per turn: either a <strong>step</strong> to an adjacent empty hole, or one or more <strong>jumps</strong> over an adjacent piece (any colour, yours included) to the empty hole directly beyond it, in a straight line.</li>
<li>The same piece may chain further jumps in the same turn, each in any of the six directions, and may stop after any jump. A step and a jump never combine. Nothing is captured: jumped pieces stay. A chain never visits the same hole twice.</li>
<li>You must move if you can. <strong>Your turn is passed automatically only if you have no legal move</strong>; the site announces it.</li>
<li>Pieces may enter and cross any camp, except as restricted by the options below.</li>
</ul>
<h3>Finishing, places and the end</h3>
<ul>
<li><strong>Anti-blocking</strong> (on by default): you have finished when your destination camp is completely full and at least one piece in it is yours, even if opponents’ pieces are also there. Off: every hole of your destination must hold your own pieces.</li>
<li><strong>Play to the end</strong> (on by default), from 3 players: after the first player finishes, the others go on until every place is decided. Off: the game ends at the first finisher and the rest are ranked as for stagnation.</li>
<li>A finished player’s pieces stay on the board but do not move any more; their turns are skipped.</li>
<li><strong>Move limit</strong> (setting, 200 moves per player by default): if it is reached before everyone has finished, the unfinished players draw for the remaining places.</li>
<li><strong>Stagnation</strong> (setting, 30 rounds by default): if for that many rounds no unfinished player improves their best progress, the game ends; unfinished players are ranked by the number of pieces in their destination, then by the shortest total remaining distance, equal values sharing a place.</li>
<li><strong>Resigning</strong>: with 2 players the other wins. With 3 or more, the resigner takes the last free place, their pieces are removed from the board and the others play on.</li>
<li>A game with no move for 45 days ends automatically with no winner and no loser.</li>
</ul>
<h3>Optional rules (all off by default)</h3>
<ul>
<li><strong>No resting in foreign camps</strong>: a piece may end its move only in its own start camp, the central hexagon or its destination; it may pass through other camps in the middle of a jump chain.</li>
<li><strong>Forced exit</strong> (blocking is forbidden): when your start camp is full, some of it with your pieces, and the player whose destination it is has no legal move into it, you must play a move that takes one of your pieces out of it if you have one.</li>
<li><strong>No leaving the destination</strong>: a piece that has reached its destination camp moves only inside it.</li>
<li><strong>Swap (Masters rule, 2002)</strong>: if one of your pieces could step or jump into a hole of your destination but for an opponent’s piece in it, you may swap the two pieces. Incompatible with anti-blocking: the room picks one.</li>
<li><strong>Long jumps</strong>: a piece may jump over a single piece at any distance along a line, landing as far beyond it as it was before it, every hole between being empty.</li>
</ul>
<h3>Rule set</h3>
<ul>
<li><strong>International</strong> (default): 10 pieces, no king, 2–6 players, the options above.</li>
<li><strong>Japanese</strong>: 2–3 players only (from 4 players the international rules apply), 15 pieces each of which one is a <strong>king</strong>, starting on the tip of its camp. The king may jump over a whole straight row of contiguous pieces (one or more) and land on the first empty hole beyond; chains are allowed. <strong>No piece may jump over a king</strong>, kings included. A player has finished only when the king stands on the tip of the destination and the other holes are filled as the finishing rule requires. Pieces may not land in camps of other colours (other players’ start or destination camps), even within a jump chain.</li>
</ul>

<h2 id="draughts">International draughts and its board sizes</h2>
<ul>
<li>Variants: <strong>International</strong> 10×10, 20 men each; <strong>Brazilian</strong> 8×8, 12 men each, same rules; <strong>Canadian</strong> 12×12, 30 men each, same rules.</li>
<li>Play is on the dark squares; each player’s lower-left square is dark. White moves first. Squares are numbered as in FMJD notation: 1 at Black’s side top left … 50 at White’s bottom right (10×10).</li>
<li>Men move one square diagonally forward; men <strong>capture forwards and backwards</strong>. Kings <strong>fly</strong>: they move and capture along a diagonal over any number of squares.</li>
<li><strong>Capturing is compulsory</strong>, and so is the <strong>maximum capture</strong>: play the sequence that takes the most pieces (kings and men count the same); among equal maxima, free choice.</li>
<li>Captured pieces are removed only when the sequence ends: a piece may not be jumped twice; an empty square may be crossed several times.</li>
<li>A man is crowned only if its move <strong>ends</strong> on the far row; passing it in the middle of a capture does not crown it.</li>
<li>Draws (FMJD): by agreement; threefold repetition of the same position with the same player to move; 25 successive moves by each side with only king moves and no capture or man move; 3 pieces of which at least one king (or fewer) against a lone king: draw after 16 moves each (the room may choose 10); 2 pieces or fewer (at least one king) against a lone king: 5 moves each.</li>
<li>A player with no legal move, or no pieces, loses. Resigning loses.</li>
<li>Notation: positions in FEN (<code>W:W31,32,K45:B1,2,K10</code>), moves in PDN (<code>32-28</code>, captures <code>28x19x10</code> with every landing square).</li>
<li>When several different captures end on the same square, tap an intermediate square to pick the path.</li>
</ul>

<h2 id="platform">Game rooms</h2>
<ul>
<li>2–6 seats for Chinese checkers, 2 for draughts; a seat is a person or a CPU of the chosen strength (Easy, Normal, Hard, Expert).</li>
<li>No account, no sign-up. A room has a six-character code; its link and QR code bring people in.</li>
<li>The host (the room’s creator) chooses the rules, may fill free seats with CPUs, then presses “Start” when every seat is taken.</li>
<li>Play live (everyone present) or at your own pace: the game stays open and everyone comes back through the link; 45 days without a move end the game with no result.</li>
<li>“Show legal moves” (on by default) marks the reachable squares after you pick a piece. “Confirm moves” shows the move and waits for a tap on ✓.</li>
</ul>
<h2 id="notation">Move notation and recorded games</h2>
<p><strong>Chinese checkers.</strong> The 121 holes are numbered row by row, left to right, from the point of the top camp (hole 1) to the point of the bottom camp (hole 121), with the star in its reference orientation (diagram below; the centre is hole 61). A move is written with the holes of its path: <code>12-23</code> for a step, <code>4-15-37</code> for two chained jumps. In a game the star is turned towards you: the “Hole numbers” button shows the numbers on the board, and the start and end holes of the last move are always labelled.</p>
<div id="notation-star" class="notation-star"></div>
<p><strong>Draughts.</strong> Official FMJD notation: the dark squares are numbered left to right and top to bottom, Black at the top (1 to 50 on 10×10, 1 to 32 on 8×8, 1 to 72 on 12×12), as the board shows them. A move is written <code>32-28</code>, a capture <code>28x19x10</code> with every landing square.</p>
<ul>
<li>In the move list, tap a move to see the position after it; “Back to the game” returns to the live board. A finished game opens on its last position with start, previous, next, end and autoplay buttons (keyboard: ← → arrows, Home, End, Space; on phones: swipe on the board).</li>
<li>A game can be downloaded: as standard PDN for draughts (tags Event, Site, Date, Round, White, Black, Result, GameType and FEN), as a text file for Chinese checkers (the tags, then one move a line in hole numbers).</li>
<li>Draughts: “Import a position” (home page) reads a PDN game or a FEN position such as <code>W:W31,32:B1,K2</code> and plays it against the CPU or with a friend from the position reached; you play the side to move.</li>
</ul>
`;

/** @type {Record<'fr'|'en', string>} */
export const RULES = { fr, en };
