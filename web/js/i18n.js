// @ts-check
/** Every text of the interface, in French (default) and English. The choice is remembered. */
import { load, save } from './storage.js';
import { EN as SITE_EN, FR as SITE_FR } from './texts.js';
import { EN as PLAY_EN, FR as PLAY_FR } from './texts-play.js';
import { EN as REPLAY_EN, FR as REPLAY_FR } from './texts-replay.js';
import { EN as CLOCK_EN, FR as CLOCK_FR } from './texts-clock.js';
import { EN as ONLINE_EN, FR as ONLINE_FR } from './texts-online.js';
import { EN as PUBLIC_EN, FR as PUBLIC_FR } from './texts-public.js';

const fr = {
  ...SITE_FR, // texts.js: install, offline, sharing, accessibility, the games' facts
  ...PLAY_FR, // texts-play.js: errors, settings' defaults, draw answers, results, the 404 page
  ...REPLAY_FR, // texts-replay.js: the move list's notation, the games' files (the rest: texts-later.js)
  // texts-away.js (players who leave a live game, moving a seat): the room screen's only,
  // loaded with it (router.js `loadRoom`, `addTexts`) and not precached.
  ...CLOCK_FR, // texts-clock.js: « Pendule », the clocks of live games
  ...ONLINE_FR, // texts-online.js: « Jouer en ligne », quick pairing
  ...PUBLIC_FR, // texts-public.js: public games, phrases, « Masquer », « Signaler »
  tagline: 'Dames chinoises et jeu de dames, gratuits dans le navigateur, sans inscription.',
  nav_rules: 'Règles',
  nav_faq: 'FAQ',
  nav_data: 'Données et conservation',
  data_in_english: 'Cette page est rédigée en anglais : aucun compte, aucun traceur, des durées de conservation courtes.',
  lang_switch: 'English',
  lang_switch_title: 'Switch to English',
  your_name: 'Votre nom',
  name_placeholder: 'Par exemple : Ana',
  name_title: 'Comment vous appelle-t-on ?',
  name_help: 'Votre nom est affiché aux autres joueurs de la partie. Il est retenu sur ce navigateur, sans compte.',
  name_change: 'Changer de nom',
  ok: 'OK',
  cancel: 'Annuler',
  close: 'Fermer',
  play_cpu: 'Contre le CPU',
  play_friends: 'Avec des amis',
  play_cpu_sub: 'Seul, choisissez la force',
  play_friends_sub: 'Un code, un lien, un QR code',
  how_title: 'Jouer en ligne avec vos amis',
  how_1_t: 'Appuyez sur « Avec des amis »',
  how_1: 'Une partie et un code de six caractères sont créés, sans inscription.',
  how_2_t: 'Envoyez le lien ou le QR code',
  how_2: 'Par message, ou lisez le code à voix haute.',
  how_3_t: 'Chacun ouvre son navigateur',
  how_3: 'Quand toutes les places sont prises, l’hôte appuie sur « Commencer ».',
  my_games: 'Vos parties',
  my_lobby: 'En attente du début',
  join_title: 'Rejoindre avec un code',
  join_placeholder: 'K7M2QX',
  join_button: 'Rejoindre',
  join_help: 'Six caractères, sans 0, O, 1, I ni L. Majuscules ou minuscules, peu importe.',
  join_bad_code: 'Ce code n’a pas la bonne forme : six caractères parmi 2–9 et A–Z (sans I, L, O).',
  no_account: 'Aucun compte, jamais. Gratuit.',
  cc_name: 'Dames chinoises',
  cc_meta: '2–6 joueurs · environ 20 min',
  cc_s1_t: 'Préparation',
  cc_s1: 'Plateau en étoile à six branches. 2–6 personnes placent chacune 10 pièces dans leur camp triangulaire.',
  cc_s2_t: 'Tour',
  cc_s2: 'Déplacez une pièce par tour : un pas vers une case voisine vide ou un saut par-dessus une pièce voisine vers la case vide juste derrière.',
  cc_s3_t: 'Sauts',
  cc_s3: 'La même pièce peut enchaîner les sauts possibles dans un tour. Un pas et un saut ne se combinent pas. Aucune pièce n’est prise.',
  cc_s4_t: 'Victoire',
  cc_s4: 'Par défaut, terminez avec l’arrivée opposée pleine et au moins une pièce à vous. Sans antiblocage, toutes les pièces doivent être à vous.',
  dr_name: 'Jeu de dames',
  dr_meta: '2 joueurs · 10×10, 8×8 ou 12×12',
  dr_s1_t: 'Préparation',
  dr_s1: 'Damier de 10×10 (ou 8×8 brésilien, 12×12 canadien), pions sur les cases foncées. Les Blancs commencent.',
  dr_s2_t: 'Tour',
  dr_s2: 'Un pion avance d’une case en diagonale. La dame vole : elle parcourt toute une diagonale.',
  dr_s3_t: 'Prises',
  dr_s3: 'Prendre est obligatoire, en avant comme en arrière, et la prise du plus grand nombre de pièces aussi.',
  dr_s4_t: 'Victoire',
  dr_s4: 'Gagne qui prend ou bloque toutes les pièces adverses. Nulle par accord, répétition ou finales de dames.',
  cpu_setup_title: 'Partie contre le CPU',
  players_label: 'Nombre de joueurs',
  players_hint_one: '{n} joueur',
  players_hint_other: '{n} joueurs',
  variant_label: 'Variante',
  level_label: 'Niveau',
  level_facile: 'Facile',
  level_normal: 'Normal',
  level_difficile: 'Difficile',
  level_expert: 'Expert',
  play_now: 'Jouer',
  variant_international: 'Internationale 10×10',
  variant_brazilian: 'Brésilienne 8×8',
  variant_canadian: 'Canadienne 12×12',
  loading: 'Chargement…',
  room_title: 'Partie {code}',
  room_code: 'Code de la partie',
  share_link: 'Lien à partager',
  copied: 'Lien copié',
  qr_alt: 'QR code du lien de la partie {code}',
  seats_title: 'Places',
  seat_empty: 'Place libre',
  seat_you: 'vous',
  seat_host: 'hôte',
  seat_cpu: 'CPU {level}',
  seat_offline: 'hors ligne',
  seat_online: 'en ligne',
  add_cpu: 'Ajouter un CPU',
  remove_cpu: 'Retirer',
  kick: 'Libérer la place',
  take_seat: 'S’asseoir ici',
  join_game: 'Rejoindre la partie',
  leave_seat: 'Quitter la place',
  spectator_note: 'Vous regardez cette partie. Prenez une place libre pour jouer.',
  spectator_full: 'Toutes les places sont prises : vous regardez cette partie.',
  spectator_game: 'Vous regardez cette partie en direct.',
  start: 'Commencer',
  start_wait: 'Toutes les places doivent être prises (personne ou CPU) pour commencer.',
  waiting_host: 'En attente de l’hôte, qui appuiera sur « Commencer ».',
  settings_title: 'Réglages de la partie',
  settings_host_only: 'Seul l’hôte modifie les réglages.',
  invite_title: 'Invitez vos amis',
  invite_help: 'Envoyez le lien, montrez le QR code ou lisez le code à voix haute.',
  camp_n: 'camp {n}',
  camps_n: 'camps {list}',
  white: 'Blancs',
  black: 'Noirs',
  on: 'Activé',
  off: 'Désactivé',
  // Room options (RULES.md), label + one line each.
  opt_players: 'Nombre de joueurs',
  opt_players_help: 'De 2 à 6 ; les camps utilisés suivent le nombre de joueurs.',
  opt_sets: 'Jeux par joueur',
  opt_sets_help: 'À 2, chacun peut mener 2 ou 3 jeux ; à 3, 2 jeux. On termine quand tous ses jeux sont arrivés.',
  opt_pieces: 'Pièces par camp',
  opt_pieces_help: 'À 2 ou 3 avec un jeu chacun : 10 pièces, ou 15 avec la rangée du bord de l’hexagone.',
  opt_rule_set: 'Type de règles',
  opt_rule_set_help: 'Internationales : 10 pièces, sans roi, 2–6. Japonaises : 15 pièces dont un roi, 2–3.',
  rule_set_international: 'Internationales',
  rule_set_japanese: 'Japonaises',
  opt_anti_blocking: 'Antiblocage',
  opt_anti_blocking_help: 'Terminez avec l’arrivée pleine et au moins une pièce à vous, même avec des pièces adverses.',
  opt_play_to_end: 'Jouer jusqu’au bout',
  opt_play_to_end_help: 'À partir de 3, on continue après la première arrivée pour décider toutes les places.',
  opt_move_limit: 'Limite de coups',
  opt_move_limit_help: 'Coups par joueur ; à la limite, les joueurs pas encore arrivés font nulle pour les places restantes. 0 : sans limite.',
  opt_stagnation: 'Stagnation (tours)',
  opt_stagnation_help: 'Si personne ne progresse pendant ce nombre de tours, la partie s’arrête et on classe les joueurs. 0 : jamais.',
  opt_allow_five: '5 joueurs autorisés',
  opt_allow_five_help: 'Certaines règles interdisent de jouer à 5 (un camp reste sans adversaire en face).',
  opt_fill_unused: 'Camps inutilisés',
  opt_fill_unused_help: 'Les camps libres reçoivent des pièces inertes qui ne bougent jamais.',
  unused_empty: 'Vides',
  unused_filled: 'Pièces inertes',
  opt_no_resting: 'Pas d’arrêt dans les camps étrangers',
  opt_no_resting_help: 'Une pièce ne finit son coup que dans son camp, l’hexagone ou son arrivée ; elle peut les traverser en sautant.',
  opt_forced_exit: 'Sortie obligatoire',
  opt_forced_exit_help: 'Interdit de bloquer : si votre départ plein empêche l’arrivée de l’adversaire, vous devez en sortir une pièce.',
  opt_no_leaving: 'Pas de sortie de l’arrivée',
  opt_no_leaving_help: 'Une pièce arrivée dans son camp d’arrivée ne bouge plus qu’à l’intérieur.',
  opt_swap: 'Échange (règle Masters)',
  opt_swap_help: 'Vous pouvez échanger votre pièce avec une pièce adverse qui occupe votre arrivée. Exclut l’antiblocage.',
  opt_long_jumps: 'Sauts longs',
  opt_long_jumps_help: 'Sautez une pièce isolée à n’importe quelle distance, en atterrissant aussi loin derrière elle.',
  opt_variant: 'Variante',
  opt_variant_help: 'Internationale 10×10 (20 pions), brésilienne 8×8 (12), canadienne 12×12 (30) : mêmes règles.',
  opt_three_vs_king: '3 pièces contre une dame seule',
  opt_three_vs_king_help: 'Nulle après ce nombre de coups de chaque camp (16 selon la FMJD, 10 selon d’autres sources).',
  opt_show_legal: 'Montrer les coups légaux',
  opt_show_legal_help: 'Marquez les cases accessibles après le choix d’une pièce.',
  opt_rotate_first: 'Changer qui commence',
  opt_rotate_first_help: 'À chaque nouvelle partie, la personne au siège suivant commence.',
  opt_random_first: 'Premier joueur au hasard',
  opt_random_first_help: 'Tirez au sort qui commence la première partie.',
  opt_hints: 'Conseils autorisés',
  opt_hints_help: 'Chaque joueur peut demander, à son tour, le coup que jouerait l’ordinateur. À couper entre amis.',
  hint_button: 'Conseil',
  hint_shown: 'Coup conseillé : la pièce et sa destination sont marquées en vert.',
  err_hints_off: 'Les conseils sont désactivés dans cette partie.',
  opt_confirm_move: 'Confirmer les coups',
  opt_confirm_move_help: 'Le coup est montré, puis joué seulement après un appui sur ✓. Utile sur téléphone.',
  opt_cpu_ms: 'Réflexion du CPU',
  opt_cpu_ms_help: 'Temps de réflexion maximal des CPU par coup.',
  seconds: '{n} s',
  // Game
  turn_you: 'À vous de jouer',
  must_capture: 'prise obligatoire',
  turn_other: 'Au tour {de name}',
  turn_cpu_thinking: '{name} réfléchit…',
  game_over: 'Partie terminée',
  players_title: 'Joueurs',
  moves_title: 'Coups',
  no_moves_yet: 'Aucun coup pour l’instant.',
  step: 'pas',
  resign: 'Abandonner',
  notify_off: 'Me prévenir à mon tour',
  notify_on: 'Ne plus me prévenir',
  notify_body: 'À vous de jouer (partie {code}).',
  resign_title: 'Abandonner la partie ?',
  resign_cc_2: 'À deux joueurs, l’autre personne gagne la partie.',
  resign_cc_many: 'Vous prenez la dernière place libre, vos pièces sont retirées du plateau et les autres continuent.',
  resign_solo: 'Le défi s’arrête là, sans résultat.',
  solitaire_button: 'Défi solitaire : traverser seul',
  resign_draughts: 'Abandonner, c’est perdre la partie.',
  resign_confirm: 'Oui, abandonner',
  draw_offer: 'Proposer nulle',
  draw_offered_by_you: 'Nulle proposée : en attente de réponse.',
  draw_offered_to_you: '{name} propose la nulle.',
  draw_accept: 'Accepter la nulle',
  draw_decline: 'Refuser',
  draw_declined_toast: 'Nulle refusée : la partie continue.',
  confirm_move: 'Jouer ce coup',
  cancel_move: 'Annuler ce coup',
  choose_path: 'Plusieurs prises mènent ici : touchez une case intermédiaire pour choisir le chemin.',
  passed_toast: 'Tour {de name} passé : aucun coup légal.',
  passed_toast_you: 'Votre tour est passé : aucun coup légal.',
  finished_toast: '{name} a terminé !',
  finished_toast_you: 'Vous avez terminé !',
  place_n: '{n}ᵉ',
  place_1: '1ᵉʳ',
  no_result: 'sans résultat',
  result_title: 'Résultat',
  result_win: '{name} a gagné',
  result_draw: 'Partie nulle',
  result_abandoned: 'Partie terminée sans résultat',
  you_won: 'Vous avez gagné !',
  rematch: 'Rejouer',
  rematch_ready: 'C’est noté : en attente des autres',
  rematch_waiting: 'En attente : {names}',
  rematch_gone_one: '{names} n’est plus là',
  rematch_gone_other: '{names} ne sont plus là',
  rematch_all_here: 'Tout le monde est là',
  rematch_ready_n: 'veut rejouer',
  back_home: 'Accueil',
  new_game: 'Nouvelle partie',
  to_move_label: 'joue',
  resigned_label: 'a abandonné',
  kings: 'dames',
  reason_finished: 'Toutes les places ont été décidées en jouant.',
  reason_first_finished: 'Partie arrêtée à la première arrivée ; les autres sont classés par progression.',
  reason_move_limit: 'Limite de coups atteinte : les joueurs non arrivés partagent les places restantes.',
  reason_stagnation: 'Stagnation : classement par pièces arrivées, puis par distance restante.',
  reason_blocked: 'Plus aucun coup possible : classement par pièces arrivées, puis par distance restante.',
  reason_resignation: 'Par abandon.',
  reason_abandoned: '45 jours sans coup : ni victoire ni défaite.',
  reason_stopped: 'Plus aucune personne en jeu : partie arrêtée, les CPU restants classés par progression.',
  reason_no_moves: 'Plus aucun coup légal pour le perdant.',
  reason_agreement: 'Nulle par accord.',
  reason_threefold_repetition: 'Nulle par triple répétition de la position.',
  reason_twenty_five_king_moves: 'Nulle : 25 coups de dames de chaque camp sans prise ni coup de pion.',
  reason_three_vs_lone_king: 'Nulle : trois pièces contre une dame seule sans résultat.',
  reason_two_vs_lone_king: 'Nulle : deux pièces contre une dame seule sans résultat.',
  // Connection
  reconnecting: 'Reconnexion…',
  reconnecting_n: 'Reconnexion… (essai {n})',
  retry_now: 'Réessayer',
  queued_moves_one: '{n} coup en attente d’envoi',
  queued_moves_other: '{n} coups en attente d’envoi',
  // Errors
  err_unknown_room: 'Aucune partie avec ce code.',
  err_room_full: 'Cette partie est complète.',
  err_seat_taken: 'Cette place vient d’être prise.',
  err_rate_limited: 'Trop d’essais : patientez un peu.',
  err_too_many_cpu_games: 'Trop de parties contre le CPU en cours : terminez-en une d’abord.',
  err_not_your_turn: 'Ce n’est pas votre tour.',
  err_illegal_move: 'Coup refusé par le serveur.',
  err_invalid_name: 'Nom invalide : 1 à 24 caractères.',
  err_invalid_settings: 'Réglage refusé : {msg}',
  err_network: 'Serveur injoignable. Vérifiez votre connexion.',
  not_found: 'Page introuvable.',
  footer: 'Dames — gratuit, sans compte, sans traceur.',
  // Turn by turn, my games, notifications, reviews (issue 6)
  opt_rhythm: 'Rythme',
  opt_rhythm_help: 'En direct : tout le monde est là. Tour par tour (avec notifications) : jouez un coup quand vous voulez et soyez averti de votre tour. Après 45 jours sans coup, la partie se termine automatiquement sans victoire ni défaite.',
  rhythm_live: 'En direct',
  rhythm_turn: 'Tour par tour (avec notifications)',
  nav_games: 'Mes parties',
  games_title: 'Mes parties',
  games_intro: 'Toutes les parties jouées sur ce navigateur, en direct ou tour par tour, en cours ou terminées. Celles où c’est à vous de jouer sont en premier.',
  games_none: 'Aucune partie pour l’instant sur ce navigateur.',
  games_your_turn: 'À vous de jouer',
  games_their_turn: 'Au tour {de name}',
  games_lobby: 'En attente du départ',
  games_over: 'Terminée',
  games_abandoned: 'Terminée sans résultat (45 jours sans coup)',
  games_since: '· {when}',
  request_kind: 'Type',
  games_vs: 'avec {names}',
  games_earlier: 'Parties précédentes :',
  games_game_n: 'Partie {n}',
  waiting_since: 'en attente depuis {when}',
  badge_title_one: '{n} partie où c’est à vous de jouer',
  badge_title_other: '{n} parties où c’est à vous de jouer',
  push_on: 'Me prévenir à mon tour (notifications)',
  push_off: 'Ne plus me prévenir',
  push_enabled: 'Vous serez prévenu quand ce sera votre tour, même page fermée.',
  push_denied: 'Les notifications sont bloquées pour ce site dans votre navigateur.',
  push_failed: 'Ce navigateur ne peut pas recevoir de notifications : l’onglet ouvert vous prévient quand même (● dans le titre).',
  sound_on: 'Son à mon tour : oui',
  sound_off: 'Son à mon tour : non',
  nav_reviews: 'Avis et demandes',
  home_reviews: 'Avis des joueurs, demandes et idées de règles →',
  reviews_title: 'Avis et demandes',
  reviews_intro: 'Après avoir joué une partie jusqu’au bout sur ce navigateur, donnez votre avis sur le jeu. Tout le monde peut envoyer une demande, signaler un problème ou proposer un réglage de règle. Tout est public, avec son état.',
  review_write: 'Donner mon avis',
  review_locked: 'Jouez une partie de ce jeu pour écrire un avis.',
  reviews_published: 'Vos avis et leur suivi sont publiés ici',
  request_game_any: 'Tout le site',
  review_game: 'Jeu',
  review_stars: 'Note',
  review_text: 'Votre texte',
  review_name: 'Votre nom (facultatif)',
  review_send: 'Envoyer',
  review_sent: 'Merci, c’est publié.',
  request_write: 'Envoyer une demande ou un problème, proposer un réglage',
  kind_review: 'Avis',
  kind_request: 'Demande',
  kind_problem: 'Problème',
  kind_rule: 'Proposer un réglage',
  status_new: 'Nouveau',
  status_planned: 'Prévu',
  status_done: 'Fait',
  status_declined: 'Refusé',
  reviews_none: 'Rien pour l’instant.',
  review_delete: 'Supprimer',
  err_not_played: 'Terminez d’abord une partie de ce jeu sur ce navigateur.',
};

/** @type {Record<keyof typeof fr, string>} */
const en = {
  ...SITE_EN,
  ...PLAY_EN,
  ...REPLAY_EN,
  ...CLOCK_EN,
  ...ONLINE_EN,
  ...PUBLIC_EN,
  tagline: 'Chinese checkers and draughts, free in your browser, no sign-up.',
  nav_rules: 'Rules',
  nav_faq: 'FAQ',
  nav_data: 'Data and retention',
  data_in_english: 'This page is in English.',
  lang_switch: 'Français',
  lang_switch_title: 'Passer en français',
  your_name: 'Your name',
  name_placeholder: 'For example: Ana',
  name_title: 'What should we call you?',
  name_help: 'Your name is shown to the other players of the game. It is remembered on this browser, no account.',
  name_change: 'Change name',
  ok: 'OK',
  cancel: 'Cancel',
  close: 'Close',
  play_cpu: 'Against the CPU',
  play_friends: 'With friends',
  play_cpu_sub: 'On your own, pick the strength',
  play_friends_sub: 'A code, a link, a QR code',
  how_title: 'Play online with your friends',
  how_1_t: 'Press “With friends”',
  how_1: 'A game and a six-character code are created, no sign-up.',
  how_2_t: 'Send the link or the QR code',
  how_2: 'By message, or read the code aloud.',
  how_3_t: 'Everyone opens their browser',
  how_3: 'When every seat is taken, the host presses “Start”.',
  my_games: 'Your games',
  my_lobby: 'Waiting to start',
  join_title: 'Join with a code',
  join_placeholder: 'K7M2QX',
  join_button: 'Join',
  join_help: 'Six characters, no 0, O, 1, I or L. Upper or lower case, either way.',
  join_bad_code: 'This code does not look right: six characters from 2–9 and A–Z (no I, L, O).',
  no_account: 'No account, ever. Free.',
  cc_name: 'Chinese checkers',
  cc_meta: '2–6 players · about 20 min',
  cc_s1_t: 'Setup',
  cc_s1: 'A six-pointed star. 2–6 people each put 10 pieces in their triangular camp.',
  cc_s2_t: 'Turn',
  cc_s2: 'Move one piece per turn: a step to an empty neighbouring hole, or a jump over a neighbouring piece to the empty hole just beyond.',
  cc_s3_t: 'Jumps',
  cc_s3: 'The same piece may chain jumps in one turn. A step and a jump never combine. Nothing is captured.',
  cc_s4_t: 'Winning',
  cc_s4: 'By default you finish when the opposite camp is full with at least one of your pieces. Without anti-blocking, every piece there must be yours.',
  dr_name: 'Draughts',
  dr_meta: '2 players · 10×10, 8×8 or 12×12',
  dr_s1_t: 'Setup',
  dr_s1: 'A 10×10 board (or 8×8 Brazilian, 12×12 Canadian), men on the dark squares. White moves first.',
  dr_s2_t: 'Turn',
  dr_s2: 'A man moves one square diagonally forward. Kings fly: they travel a whole diagonal.',
  dr_s3_t: 'Captures',
  dr_s3: 'Capturing is compulsory, forwards and backwards, and so is taking the most pieces.',
  dr_s4_t: 'Winning',
  dr_s4: 'Capture or block every enemy piece to win. Draws by agreement, repetition or king endings.',
  cpu_setup_title: 'Game against the CPU',
  players_label: 'Number of players',
  players_hint_one: '{n} player',
  players_hint_other: '{n} players',
  variant_label: 'Variant',
  level_label: 'Level',
  level_facile: 'Easy',
  level_normal: 'Normal',
  level_difficile: 'Hard',
  level_expert: 'Expert',
  play_now: 'Play',
  variant_international: 'International 10×10',
  variant_brazilian: 'Brazilian 8×8',
  variant_canadian: 'Canadian 12×12',
  loading: 'Loading…',
  room_title: 'Game {code}',
  room_code: 'Game code',
  share_link: 'Link to share',
  copied: 'Link copied',
  qr_alt: 'QR code of the link to game {code}',
  seats_title: 'Seats',
  seat_empty: 'Free seat',
  seat_you: 'you',
  seat_host: 'host',
  seat_cpu: 'CPU {level}',
  seat_offline: 'offline',
  seat_online: 'online',
  add_cpu: 'Add a CPU',
  remove_cpu: 'Remove',
  kick: 'Free this seat',
  take_seat: 'Sit here',
  join_game: 'Join the game',
  leave_seat: 'Leave my seat',
  spectator_note: 'You are watching this game. Take a free seat to play.',
  spectator_full: 'Every seat is taken: you are watching this game.',
  spectator_game: 'You are watching this game live.',
  start: 'Start',
  start_wait: 'Every seat must be taken (by a person or a CPU) to start.',
  waiting_host: 'Waiting for the host to press “Start”.',
  settings_title: 'Game settings',
  settings_host_only: 'Only the host changes the settings.',
  invite_title: 'Invite your friends',
  invite_help: 'Send the link, show the QR code or read the code aloud.',
  camp_n: 'camp {n}',
  camps_n: 'camps {list}',
  white: 'White',
  black: 'Black',
  on: 'On',
  off: 'Off',
  opt_players: 'Number of players',
  opt_players_help: 'From 2 to 6; the camps used follow the number of players.',
  opt_sets: 'Sets per player',
  opt_sets_help: 'With 2, each may lead 2 or 3 sets; with 3, 2 sets. You finish when all your sets are home.',
  opt_pieces: 'Pieces per camp',
  opt_pieces_help: 'With 2 or 3 players and one set each: 10 pieces, or 15 including the hexagon’s edge row.',
  opt_rule_set: 'Rule set',
  opt_rule_set_help: 'International: 10 pieces, no king, 2–6. Japanese: 15 pieces including a king, 2–3.',
  rule_set_international: 'International',
  rule_set_japanese: 'Japanese',
  opt_anti_blocking: 'Anti-blocking',
  opt_anti_blocking_help: 'Finish with the destination full and at least one of your pieces, even with opponents’ pieces there.',
  opt_play_to_end: 'Play to the end',
  opt_play_to_end_help: 'From 3 players, play on after the first finisher to decide every place.',
  opt_move_limit: 'Move limit',
  opt_move_limit_help: 'Moves per player; at the limit, the unfinished players share the remaining places. 0: no limit.',
  opt_stagnation: 'Stagnation (rounds)',
  opt_stagnation_help: 'If nobody progresses for this many rounds, the game stops and players are ranked. 0: never.',
  opt_allow_five: '5 players allowed',
  opt_allow_five_help: 'Some rules forbid playing with 5 (one camp has nobody facing it).',
  opt_fill_unused: 'Unused camps',
  opt_fill_unused_help: 'Free camps get inert pieces that never move.',
  unused_empty: 'Empty',
  unused_filled: 'Inert pieces',
  opt_no_resting: 'No resting in foreign camps',
  opt_no_resting_help: 'A piece may end its move only in its own camp, the hexagon or its destination; jumps may cross.',
  opt_forced_exit: 'Forced exit',
  opt_forced_exit_help: 'No blocking: if your full start camp keeps an opponent out, you must move a piece out of it.',
  opt_no_leaving: 'No leaving the destination',
  opt_no_leaving_help: 'A piece that reached its destination camp moves only inside it.',
  opt_swap: 'Swap (Masters rule)',
  opt_swap_help: 'You may swap your piece with an opponent’s piece sitting in your destination. Excludes anti-blocking.',
  opt_long_jumps: 'Long jumps',
  opt_long_jumps_help: 'Jump a single piece at any distance, landing as far beyond it.',
  opt_variant: 'Variant',
  opt_variant_help: 'International 10×10 (20 men), Brazilian 8×8 (12), Canadian 12×12 (30): same rules.',
  opt_three_vs_king: '3 pieces against a lone king',
  opt_three_vs_king_help: 'Draw after this many moves by each side (16 by FMJD rules, 10 in other sources).',
  opt_show_legal: 'Show legal moves',
  opt_show_legal_help: 'Mark the reachable holes after picking a piece.',
  opt_rotate_first: 'Change who starts',
  opt_rotate_first_help: 'Each new game is started by the next seat.',
  opt_random_first: 'Random first player',
  opt_random_first_help: 'Draw lots for who starts the first game.',
  opt_hints: 'Hints allowed',
  opt_hints_help: 'On their turn, each player may ask which move the computer would play. Turn off between friends.',
  hint_button: 'Hint',
  hint_shown: 'Suggested move: the piece and its destination are marked in green.',
  err_hints_off: 'Hints are turned off in this game.',
  opt_confirm_move: 'Confirm moves',
  opt_confirm_move_help: 'The move is shown, then played only after a tap on ✓. Handy on phones.',
  opt_cpu_ms: 'CPU thinking time',
  opt_cpu_ms_help: 'Longest time a CPU thinks per move.',
  seconds: '{n} s',
  turn_you: 'Your move',
  must_capture: 'capture is compulsory',
  turn_other: '{name} to move',
  turn_cpu_thinking: '{name} is thinking…',
  game_over: 'Game over',
  players_title: 'Players',
  moves_title: 'Moves',
  no_moves_yet: 'No move yet.',
  step: 'step',
  resign: 'Resign',
  notify_off: 'Tell me when it is my turn',
  notify_on: 'Stop telling me',
  notify_body: 'Your move (game {code}).',
  resign_title: 'Resign this game?',
  resign_cc_2: 'With two players, the other person wins the game.',
  resign_cc_many: 'You take the last free place, your pieces are removed from the board and the others play on.',
  resign_solo: 'The challenge ends here, with no result.',
  solitaire_button: 'Solo challenge: cross alone',
  resign_draughts: 'Resigning loses the game.',
  resign_confirm: 'Yes, resign',
  draw_offer: 'Offer a draw',
  draw_offered_by_you: 'Draw offered: waiting for an answer.',
  draw_offered_to_you: '{name} offers a draw.',
  draw_accept: 'Accept the draw',
  draw_decline: 'Decline',
  draw_declined_toast: 'Draw declined: play on.',
  confirm_move: 'Play this move',
  cancel_move: 'Cancel this move',
  choose_path: 'Several captures end here: tap an intermediate square to pick the path.',
  passed_toast: '{name}’s turn was passed: no legal move.',
  passed_toast_you: 'Your turn was passed: no legal move.',
  finished_toast: '{name} has finished!',
  finished_toast_you: 'You have finished!',
  place_n: '{n}th',
  place_1: '1st',
  no_result: 'no result',
  result_title: 'Result',
  result_win: '{name} won',
  result_draw: 'Draw',
  result_abandoned: 'Game ended with no result',
  you_won: 'You won!',
  rematch: 'Play again',
  rematch_ready: 'Ready: waiting for the others',
  rematch_waiting: 'Waiting for: {names}',
  rematch_gone_one: '{names} has left',
  rematch_gone_other: '{names} have left',
  rematch_all_here: 'Everybody is here',
  rematch_ready_n: 'wants to play again',
  back_home: 'Home',
  new_game: 'New game',
  to_move_label: 'to move',
  resigned_label: 'resigned',
  kings: 'kings',
  reason_finished: 'Every place was decided by play.',
  reason_first_finished: 'Stopped at the first finisher; the others are ranked by progress.',
  reason_move_limit: 'Move limit reached: the unfinished players share the remaining places.',
  reason_stagnation: 'Stagnation: ranked by pieces home, then by remaining distance.',
  reason_blocked: 'No move left: ranked by pieces home, then by remaining distance.',
  reason_resignation: 'By resignation.',
  reason_abandoned: '45 days without a move: no winner, no loser.',
  reason_stopped: 'No person left in play: game stopped, the remaining CPUs ranked by progress.',
  reason_no_moves: 'The loser had no legal move left.',
  reason_agreement: 'Draw by agreement.',
  reason_threefold_repetition: 'Draw by threefold repetition.',
  reason_twenty_five_king_moves: 'Draw: 25 king moves by each side with no capture or man move.',
  reason_three_vs_lone_king: 'Draw: three pieces against a lone king, no result.',
  reason_two_vs_lone_king: 'Draw: two pieces against a lone king, no result.',
  reconnecting: 'Reconnecting…',
  reconnecting_n: 'Reconnecting… (attempt {n})',
  retry_now: 'Retry',
  queued_moves_one: '{n} move waiting to be sent',
  queued_moves_other: '{n} moves waiting to be sent',
  err_unknown_room: 'No game with this code.',
  err_room_full: 'This game is full.',
  err_seat_taken: 'This seat was just taken.',
  err_rate_limited: 'Too many attempts: please wait a little.',
  err_too_many_cpu_games: 'Too many games against the CPU at once: finish one first.',
  err_not_your_turn: 'It is not your turn.',
  err_illegal_move: 'Move refused by the server.',
  err_invalid_name: 'Invalid name: 1 to 24 characters.',
  err_invalid_settings: 'Setting refused: {msg}',
  err_network: 'Cannot reach the server. Check your connection.',
  not_found: 'Page not found.',
  footer: 'Dames — free, no account, no tracker.',
  opt_rhythm: 'Rhythm',
  opt_rhythm_help: 'Live: everyone is here. Turn by turn (with notifications): play a move when you want and be told when it is your turn. After 45 days without a move, the game ends automatically with no winner and no loser.',
  rhythm_live: 'Live',
  rhythm_turn: 'Turn by turn (with notifications)',
  nav_games: 'My games',
  games_title: 'My games',
  games_intro: 'Every game played on this browser, live or turn by turn, running or finished. The ones where it is your turn come first.',
  games_none: 'No game on this browser yet.',
  games_your_turn: 'Your turn',
  games_their_turn: '{name} to play',
  games_lobby: 'Waiting for the start',
  games_over: 'Finished',
  games_abandoned: 'Ended with no result (45 days without a move)',
  games_since: '· {when}',
  request_kind: 'Kind',
  games_vs: 'with {names}',
  games_earlier: 'Earlier games:',
  games_game_n: 'Game {n}',
  waiting_since: 'waiting since {when}',
  badge_title_one: '{n} game where it is your turn',
  badge_title_other: '{n} games where it is your turn',
  push_on: 'Tell me when it is my turn (notifications)',
  push_off: 'Stop telling me',
  push_enabled: 'You will be told when it is your turn, even with the page closed.',
  push_denied: 'Notifications are blocked for this site in your browser.',
  push_failed: 'This browser cannot receive notifications: the open tab still tells you (● in the title).',
  sound_on: 'Sound on my turn: on',
  sound_off: 'Sound on my turn: off',
  nav_reviews: 'Reviews and requests',
  home_reviews: 'Players’ reviews, requests and rule ideas →',
  reviews_title: 'Reviews and requests',
  reviews_intro: 'Once you have played a game to the end on this browser, review it. Anyone can send a request, report a problem or propose a rule setting. Everything is public, with its status.',
  review_write: 'Write a review',
  review_locked: 'Play a game of this kind to write a review.',
  reviews_published: 'Your reviews and what became of them are published here',
  request_game_any: 'The whole site',
  review_game: 'Game',
  review_stars: 'Rating',
  review_text: 'Your text',
  review_name: 'Your name (optional)',
  review_send: 'Send',
  review_sent: 'Thank you, it is published.',
  request_write: 'Send a request or a problem, propose a rule setting',
  kind_review: 'Review',
  kind_request: 'Request',
  kind_problem: 'Problem',
  kind_rule: 'Propose a rule setting',
  status_new: 'New',
  status_planned: 'Planned',
  status_done: 'Done',
  status_declined: 'Declined',
  reviews_none: 'Nothing yet.',
  review_delete: 'Delete',
  err_not_played: 'First finish a game of this kind on this browser.',
};

/** @typedef {keyof typeof fr | keyof typeof import('./texts-away.js').FR} Key */
/** @typedef {'fr'|'en'} Lang */

/**
 * French typography: a narrow no-break space before ? ! : ; » and after «, so that they never
 * start a line.
 * @param {string} s
 */
export function frTypo(s) {
  return s.replace(/ ([?!:;»])/g, '\u202F$1').replace(/« /g, '«\u202F');
}

/** The French texts given their typography: each when first read, not all of them at start-up. @type {Set<string>} */
const typed = new Set();

/** A French text with its typography. @param {Key} key @returns {string|undefined} */
function frText(key) {
  if (!typed.has(key)) {
    typed.add(key);
    if (key in tables.fr) tables.fr[key] = frTypo(tables.fr[key]);
  }
  return tables.fr[key];
}

/** Both languages' texts, the later ones (`addTexts`) included once loaded. */
const tables = /** @type {Record<Lang, Record<Key, string>>} */ (/** @type {unknown} */ ({ fr, en }));

/**
 * Adds the texts of a screen loaded later (texts-away.js, with the room screen).
 * @param {Record<string, string>} frTexts @param {Record<string, string>} enTexts
 */
export function addTexts(frTexts, enTexts) {
  Object.assign(tables.fr, frTexts);
  Object.assign(tables.en, enTexts);
}

/** Every text of a language, as written (the browser test over every text reads them). @param {Lang} l */
export function textTable(l) {
  if (l === 'fr') for (const k of /** @type {Key[]} */ (Object.keys(fr))) frText(k);
  return tables[l];
}

/** @type {Lang} */
let current = load('lang') === 'en' ? 'en' : 'fr';

/** @type {Set<() => void>} */
const listeners = new Set();

/** @returns {Lang} */
export function lang() {
  return current;
}

/** @param {Lang} l */
export function setLang(l) {
  current = l;
  save('lang', l);
  document.documentElement.lang = l;
  for (const f of listeners) f();
}

/** @param {() => void} f */
export function onLangChange(f) {
  listeners.add(f);
}

/**
 * Translates a key, replacing `{name}` placeholders.
 * @param {Key} key @param {Record<string, string|number>} [params]
 */
export function t(key, params) {
  return fillIn((current === 'en' ? tables.en[key] : undefined) ?? frText(key) ?? key, params);
}

/**
 * Replaces `{name}` by the value, and in French `{de name}` by the value after « de » elided
 * before a vowel or a mute h (« d’Alice », « d’Hugo », « de Bo ») or contracted before « CPU »
 * (« du CPU Facile »).
 * @param {string} s @param {Record<string, string|number>} [params]
 */
export function fillIn(s, params) {
  if (params) {
    for (const [k, v] of Object.entries(params)) {
      s = s.split(`{de ${k}}`).join(de(String(v))).split(`{${k}}`).join(String(v));
    }
  }
  return s;
}

/** French « de » before a name or a noun phrase. @param {string} name */
export function de(name) {
  if (/^CPU\b/.test(name)) return 'du ' + name;
  return /^[aeiouyhàâäéèêëîïôöûüœæ]/i.test(name) ? 'd’' + name : 'de ' + name;
}

/**
 * A text whose words follow a number: `{key}_one` (French: 0 and 1; English: 1) or `{key}_other`,
 * with `{n}` filled in.
 * @param {string} key @param {number} n @param {Record<string, string|number>} [params]
 */
export function tn(key, n, params) {
  const one = current === 'fr' ? Math.abs(n) < 2 : n === 1;
  return t(/** @type {Key} */ (`${key}_${one ? 'one' : 'other'}`), { n, ...params });
}

/**
 * A text about a person: `{key}_you` when it is the reader (« Vous avez terminé »), else `{key}`
 * with their name (« Zoé a terminé »).
 * @param {string} key @param {boolean} you @param {Record<string, string|number>} [params]
 */
export function tw(key, you, params) {
  return t(/** @type {Key} */ (you ? `${key}_you` : key), params);
}

/** Names as a list in the page's language: « Bo et Zoé », « Alice, Bo et Zoé ». @param {string[]} names */
export function nameList(names) {
  try {
    return new Intl.ListFormat(current, { style: 'long', type: 'conjunction' }).format(names);
  } catch {
    return names.join(', ');
  }
}

/** Ordinal place in the current language. @param {number} n */
export function place(n) {
  if (current === 'fr') return n === 1 ? t('place_1') : t('place_n', { n });
  const suffix = n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th';
  return n + suffix;
}

/** Sentence for an outcome's reason, or null if unknown. @param {string|undefined|null} reason */
export function reasonText(reason) {
  const k = /** @type {Key} */ ('reason_' + reason);
  return reason && k in tables.fr ? t(k) : null;
}

/** The label of each settings field the server may name in an error (`field`), by its path. */
const FIELD_KEYS = /** @type {Record<string, Key>} */ ({
  name: 'your_name',
  'cpu.level': 'level_label',
  'cpu.levels': 'level_label',
  show_legal_moves: 'opt_show_legal',
  rotate_first: 'opt_rotate_first',
  random_first: 'opt_random_first',
  confirm_move: 'opt_confirm_move',
  cpu_ms: 'opt_cpu_ms',
  rhythm: 'opt_rhythm',
  hints: 'opt_hints',
  away_after: 'opt_away_after',
  clock: 'opt_clock',
  'clock.kind': 'opt_clock',
  'clock.base_ms': 'opt_clock',
  'clock.increment_ms': 'opt_clock',
  'clock.move_ms': 'opt_clock',
  'clock.reserve_ms': 'opt_clock',
  on_flag: 'opt_on_flag',
  public: 'opt_public',
  level: 'level_label',
  'rules.players': 'opt_players',
  'rules.sets': 'opt_sets',
  'rules.pieces': 'opt_pieces',
  'rules.rule_set': 'opt_rule_set',
  'rules.unused_camps': 'opt_fill_unused',
  'rules.anti_blocking': 'opt_anti_blocking',
  'rules.play_to_the_end': 'opt_play_to_end',
  'rules.move_limit': 'opt_move_limit',
  'rules.stagnation_rounds': 'opt_stagnation',
  'rules.allow_five_players': 'opt_allow_five',
  'rules.rotate_first_player': 'opt_rotate_first',
  'rules.random_first_player': 'opt_random_first',
  'rules.no_resting_in_foreign_camps': 'opt_no_resting',
  'rules.forced_exit': 'opt_forced_exit',
  'rules.no_leaving_destination': 'opt_no_leaving',
  'rules.swap_rule': 'opt_swap',
  'rules.long_jumps': 'opt_long_jumps',
  'rules.variant': 'opt_variant',
  'rules.three_vs_king_moves': 'opt_three_vs_king',
});

/**
 * The label of a field named by the server (`rules.move_limit`, `settings.cpu_ms`,
 * `cpu.levels.1`…) in the current language; the path itself if it is unknown.
 * @param {string} path
 */
export function fieldLabel(path) {
  const p = path.replace(/^settings\./, '').replace(/\.\d+$/, '');
  const k = FIELD_KEYS[p];
  return k ? t(k) : p;
}

/**
 * @typedef {{code: string, message?: string, field?: string|null, detail?: {reason?: string, [k: string]: any}|null}} ErrorLike
 */

/**
 * What to tell the player of an error the server answered (or the client found), in their
 * language: from its code, the field it names and the detail's reason and figures
 * (docs/protocol.md "Errors"). Never the server's English message.
 * @param {ErrorLike} e
 */
export function errorText(e) {
  const d = e.detail || {};
  const reason = d.reason || '';
  const list = (/** @type {any} */ xs) => (Array.isArray(xs) ? xs.join(', ') : String(xs ?? ''));
  if (e.code === 'invalid_name') {
    if (reason === 'too_long') return t('err_name_too_long', { max: d.max ?? 24 });
    if (reason === 'length') return t('err_name_length', { max: d.max ?? 24 });
    if (reason === 'control_chars' || reason === 'control') return t('err_name_control_chars');
    if (reason === 'empty') return t('err_name_empty');
    const k = /** @type {Key} */ ('err_name_' + reason);
    return reason && k in tables.fr ? t(k) : t('err_invalid_name');
  }
  if (e.code === 'invalid_settings') {
    const label = e.field ? fieldLabel(e.field) : '';
    switch (reason) {
      case 'five_forbidden': return t('err_five_forbidden');
      case 'too_many_sets': return tn('err_too_many_sets', Number(d.max ?? 1), { players: d.players ?? '?' });
      case 'fifteen_pieces': return t('err_fifteen_pieces');
      case 'japanese_players': return t('err_japanese_players', { max: d.max ?? 3 });
      case 'japanese_pieces': return t('err_japanese_pieces');
      case 'wrong_length': return t('err_levels_length');
      default: break;
    }
    if (!e.field) return t('err_settings_generic');
    if (reason === 'out_of_range') return t('err_field_out_of_range', { label, min: d.min ?? '?', max: d.max ?? '?' });
    if (reason === 'not_allowed') return t('err_field_not_allowed', { label, allowed: list(d.allowed) });
    if (reason === 'wrong_type') return t('err_field_wrong_type', { label });
    if (reason === 'unknown_field') return t('err_field_unknown', { field: e.field });
    if (reason === 'conflict') return t('err_field_conflict', { label, with: d.with ? fieldLabel(String(d.with)) : '?' });
    return t('err_field_other', { label });
  }
  if (e.code === 'not_away') {
    if (reason === 'too_early') return t('err_not_away_too_early', { n: Math.max(1, Math.ceil(Number(d.wait_ms ?? 1000) / 1000)) });
    return t(reason === 'present' ? 'err_not_away_present' : 'err_not_away_not_their_turn');
  }
  if (e.code === 'wrong_state') {
    const k = /** @type {Key} */ ('err_state_' + reason);
    return reason && k in tables.fr ? t(k) : t('err_state_generic');
  }
  /** @type {Record<string, Key>} */
  const map = {
    unknown_room: 'err_unknown_room',
    room_full: 'err_room_full',
    seat_taken: 'err_seat_taken',
    rate_limited: 'err_rate_limited',
    not_your_turn: 'err_not_your_turn',
    illegal_move: 'err_illegal_move',
    network: 'err_network',
    not_played: 'err_not_played',
    hints_off: 'err_hints_off',
    bad_json: 'err_bad_json',
    too_large: 'err_too_large',
    not_seated: 'err_not_seated',
    not_host: 'err_not_host',
    token_mismatch: 'err_token_mismatch',
    not_enough_players: 'err_not_enough_players',
    not_found: 'err_not_found',
    invalid_input: 'err_invalid_input',
    internal: 'err_internal',
    http_403: 'err_forbidden',
    method_not_allowed: 'err_bad_json',
    not_json: 'err_bad_json',
    cross_site: 'err_cross_site',
    timeout: 'err_network',
    too_many_connections: 'err_rate_limited',
    too_many_cpu_games: 'err_too_many_cpu_games',
    overloaded: 'err_busy',
    conflict: 'err_conflict',
    seat_moved: 'err_seat_moved',
    invalid_transfer: 'err_invalid_transfer',
    unknown_pool: 'err_unknown_pool',
    too_many_seeks: 'err_too_many_seeks',
    not_blockable: 'err_not_blockable',
    unknown_phrase: 'err_unknown_phrase',
  };
  const k = map[e.code];
  if (k) return t(k);
  if (/^http_5/.test(e.code)) return t('err_internal');
  return t('err_unknown_code', { code: e.code });
}


document.documentElement.lang = current;
