// @ts-check
/**
 * Texts of the clocks (issue 20, « Pendule »), in French and English: the setting and its
 * presets, what becomes of a player whose time is out, the clocks on the game page, the low-time
 * warning, the result « Temps écoulé » and the errors of the clock. i18n.js merges them.
 */

export const FR = {
  opt_clock: 'Pendule',
  opt_clock_help: 'En direct : chaque joueur a son temps, décompté par le serveur pendant son tour. Quand il est écoulé, la pendule tombe.',
  clock_none: 'Sans pendule',
  clock_fischer_min: '{m} min + {inc} s',
  clock_fischer_sec: '{s} s + {inc} s',
  clock_per_move: '{s} s par coup (réserve {r} s)',
  opt_on_flag: 'Quand la pendule tombe',
  opt_on_flag_help: 'À trois joueurs ou plus : la place du joueur dont le temps est écoulé est confiée à un CPU jusqu’à la fin, ou il finit dernier et quitte la partie.',
  on_flag_cpu: 'Un CPU prend sa place',
  on_flag_last: 'Il finit dernier',
  clocks_label: 'Pendules',
  clock_of: 'Pendule {de name}',
  clock_reserve: 'réserve {t}',
  clock_out: 'Temps écoulé',
  clock_low_warning: 'Attention : votre temps est presque écoulé.',
  reason_time: 'Temps écoulé.',
  reason_time_by: 'Temps écoulé : la pendule {de name} est tombée.',
  reason_time_by_you: 'Temps écoulé : votre pendule est tombée.',
  flag_cpu_toast: 'La pendule {de name} est tombée : un CPU joue sa place jusqu’à la fin.',
  flag_last_toast: 'La pendule {de name} est tombée : dernière place, les autres continuent.',
  flag_you_cpu: 'Votre pendule est tombée : un CPU joue votre place jusqu’à la fin.',
  flag_you_last: 'Votre pendule est tombée : vous finissez dernier.',
  err_state_time_out: 'Trop tard : votre temps est écoulé.',
  err_state_time_left: 'Il reste du temps à ce joueur.',
  err_state_no_clock: 'Aucune pendule ne tourne.',
};

/** @type {Record<keyof typeof FR, string>} */
export const EN = {
  opt_clock: 'Clock',
  opt_clock_help: 'Live: each player has their own time, counted down by the server during their turn. When it runs out, the flag falls.',
  clock_none: 'No clock',
  clock_fischer_min: '{m} min + {inc} s',
  clock_fischer_sec: '{s} s + {inc} s',
  clock_per_move: '{s} s per move ({r} s reserve)',
  opt_on_flag: 'When the flag falls',
  opt_on_flag_help: 'Three players or more: the seat of the player whose time is out is handed to a CPU to the end, or they finish last and leave the game.',
  on_flag_cpu: 'A CPU takes the seat',
  on_flag_last: 'They finish last',
  clocks_label: 'Clocks',
  clock_of: '{name}’s clock',
  clock_reserve: 'reserve {t}',
  clock_out: 'Time out',
  clock_low_warning: 'Careful: your time is almost out.',
  reason_time: 'Time out.',
  reason_time_by: 'Time out: {name}’s flag fell.',
  reason_time_by_you: 'Time out: your flag fell.',
  flag_cpu_toast: '{name}’s flag fell: a CPU plays their seat to the end.',
  flag_last_toast: '{name}’s flag fell: last place, the others play on.',
  flag_you_cpu: 'Your flag fell: a CPU plays your seat to the end.',
  flag_you_last: 'Your flag fell: you finish last.',
  err_state_time_out: 'Too late: your time is out.',
  err_state_time_left: 'This player still has time.',
  err_state_no_clock: 'No clock is running.',
};
