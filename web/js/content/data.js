// @ts-check
/** Data and retention (in English, as the issue asks). */

export const DATA = `
<h1>Data and retention</h1>
<p>Dames has <strong>no accounts</strong> and never asks you to sign up. This page lists everything the server stores, why, and when it is deleted. The server enforces these durations itself.</p>

<h2>Cookies</h2>
<table>
<tr><th>Cookie</th><th>What it holds</th><th>Why</th><th>Lifetime</th></tr>
<tr><td><code>dames_client</code></td><td>A random browser id (128 random bits), HttpOnly.</td><td>Lists the games opened from this browser and keys the rate limits. It grants nothing by itself.</td><td>One year.</td></tr>
<tr><td><code>dames_seat_{CODE}</code></td><td>A random seat token for one room, HttpOnly. The server keeps only its SHA-256 hash.</td><td>Puts you back in your seat when you reopen the room’s link; only its holder can move for that seat.</td><td>Up to 400 days in your browser; cleared when you leave the seat, and worthless once the room is deleted (the server forgets the token with the room).</td></tr>
</table>
<p>Both cookies are <strong>HttpOnly</strong> (scripts cannot read them) and <code>SameSite=Lax</code>. Your browser also keeps, in its local storage, the name you typed and your language choice; they never leave your browser except when you join a game.</p>

<h2>What the server stores</h2>
<ul>
<li>The <strong>names you type</strong> when you take a seat, shown to the other people in that room.</li>
<li>Each room’s code, settings, seats and the <strong>moves of its games</strong>.</li>
<li>Hashes of seat tokens and the random browser id.</li>
<li>Rate-limit counters (room creation, join attempts, reviews and requests per address) are kept <strong>in memory only</strong> and vanish when the server restarts.</li>
<li>If you turn on notifications for a game: your browser’s <strong>push subscription</strong> for your seat (the address of your browser’s push service and the public keys that encrypt the messages). Messages are encrypted end to end: the push service cannot read them.</li>
<li>That this browser (its random id) <strong>finished a game</strong> of Chinese checkers or draughts, so that it may review it.</li>
<li><strong>Reviews and requests</strong> you write: the text, the rating, the name you give (optional), the status, and the random browser id (never shown, it lets you delete your own entries).</li>
<li>The server’s own key for signing notifications (VAPID).</li>
</ul>

<h2>How long it is kept</h2>
<table>
<tr><th>What</th><th>Deleted</th></tr>
<tr><td>A room whose game never started</td><td>7 days after its last activity.</td></tr>
<tr><td>A finished game</td><td>30 days after it ends.</td></tr>
<tr><td>A game with no move for 45 days (live or turn by turn)</td><td>It ends with no result, and is deleted 30 days later.</td></tr>
<tr><td>A push subscription</td><td>As soon as the game ends, when your browser’s push service says it is gone, or when you press “Stop telling me”.</td></tr>
<tr><td>A review or request, and the record that this browser finished a game</td><td>2 years after it was written. You can delete your own reviews and requests at any time on the reviews page.</td></tr>
</table>
<p>Deletion removes the room, its seats, names and moves from the database.</p>

<h2>No third parties</h2>
<p>No analytics, no advertising, <strong>no third-party trackers</strong>, no external fonts or scripts: every file is served by the game’s own server.</p>
`;
