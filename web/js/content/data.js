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
<li>Rate-limit counters (room creation, join attempts) are kept <strong>in memory only</strong> and vanish when the server restarts.</li>
</ul>

<h2>How long it is kept</h2>
<table>
<tr><th>What</th><th>Deleted</th></tr>
<tr><td>A room whose game never started</td><td>7 days after its last activity.</td></tr>
<tr><td>A finished game</td><td>30 days after it ends.</td></tr>
<tr><td>A game with no move for 45 days</td><td>It ends with no result, and is deleted 30 days later.</td></tr>
</table>
<p>Deletion removes the room, its seats, names and moves from the database.</p>

<h2>No third parties</h2>
<p>No analytics, no advertising, <strong>no third-party trackers</strong>, no external fonts or scripts: every file is served by the game’s own server.</p>
`;
