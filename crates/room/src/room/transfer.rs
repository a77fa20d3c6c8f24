//! Continue on another device (issue 11 item 1, docs/protocol.md "Continue on another device"):
//! a seated person asks for a one-time link (and its QR code) that moves their seat to another
//! browser. The link's token is 128 bits from the OS's generator; the room keeps only its
//! SHA-256 with its expiry ([`TRANSFER_TTL_MS`]), one per seat (a new link replaces the last
//! one), which the server stores with the seat (`SeatRow::transfer_hash`) before answering; it is compared in constant time against every seat and works once. Claiming it
//! gives the new browser a new seat token and makes the old one worthless at once (event
//! `moved`: the old page's socket is told and speaks as a spectator from then on).

use super::{Change, Occupant, Room};
use crate::error::Error;
use crate::event::Event;
use crate::token;

/// How long a link to move a seat stays valid (ms).
pub const TRANSFER_TTL_MS: i64 = 10 * 60 * 1000;

/// A pending link to move a seat (no event: stored with the seat's row, not in the log).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transfer {
    /// SHA-256 of the link's token.
    pub hash: [u8; 32],
    /// When it stops working (Unix ms).
    pub expires_at: i64,
}

impl Room {
    /// `seat`'s person asks for a link to move their seat: the token (to put in the link) and
    /// when it expires. Replaces the seat's earlier link. No event: the server stores it with
    /// the seat (`RoomStore::save_seat_memory`) before giving the link.
    ///
    /// # Errors
    /// `not_seated` if no person sits there.
    pub fn offer_transfer(&mut self, seat: usize, now: i64) -> Result<(String, i64), Error> {
        let s = self.seats.get_mut(seat).ok_or(Error::NotSeated)?;
        if !matches!(s.occupant, Occupant::Human { .. }) {
            return Err(Error::NotSeated);
        }
        let token = token::random_hex128();
        let expires_at = now + TRANSFER_TTL_MS;
        s.transfer = Some(Transfer {
            hash: token::hash_token(&token),
            expires_at,
        });
        Ok((token, expires_at))
    }

    /// Moves the seat whose link token is `link` to the browser `client`: its new seat token.
    /// The link is used up; the old seat token stops working now (its connections no longer
    /// count for the seat).
    ///
    /// # Errors
    /// `invalid_transfer` for a token no seat has, or one expired.
    pub fn claim_transfer(
        &mut self,
        link: &str,
        client: &str,
        now: i64,
        ch: &mut Change,
    ) -> Result<(usize, String), Error> {
        // Every seat is compared (no early exit) so that timing tells nothing.
        let mut found = None;
        for (i, s) in self.seats.iter().enumerate() {
            if let Some(t) = &s.transfer {
                if token::token_matches(link, &t.hash) && t.expires_at > now {
                    found = Some(i);
                }
            }
        }
        let seat = found.ok_or(Error::InvalidTransfer)?;
        let fresh = token::random_hex128();
        let s = &mut self.seats[seat];
        let Occupant::Human {
            token_hash,
            client: browser,
            ..
        } = &mut s.occupant
        else {
            return Err(Error::InvalidTransfer);
        };
        *token_hash = token::hash_token(&fresh);
        *browser = Some(client.to_owned());
        s.transfer = None;
        // The open connections were the old token's: the new browser's own count from now.
        s.connections = 0;
        s.away_since = Some(now);
        ch.event(Event::Moved { seat });
        Ok((seat, fresh))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameKind;
    use crate::room::{Settings, SettingsInput};

    fn room() -> Room {
        let (settings, seats) =
            Settings::new(GameKind::Draughts, &SettingsInput::default()).unwrap();
        let ana = Occupant::Human {
            name: "Ana".into(),
            token_hash: token::hash_token("old"),
            client: Some("a".into()),
        };
        let mut r = Room::new("K7M2QX".into(), GameKind::Draughts, settings, seats, ana, 0);
        r.presence(0, 1, 0);
        r
    }

    #[test]
    fn a_link_moves_the_seat_once_and_the_old_token_stops_working() {
        let mut r = room();
        let mut ch = Change::default();
        let (link, expires) = r.offer_transfer(0, 1_000).unwrap();
        assert_eq!(expires, 1_000 + TRANSFER_TTL_MS);
        assert!(token::is_hex128(&link));
        assert!(matches!(
            r.claim_transfer("0123456789abcdef0123456789abcdef", "b", 2_000, &mut ch),
            Err(Error::InvalidTransfer)
        ));
        let (seat, fresh) = r.claim_transfer(&link, "b", 2_000, &mut ch).unwrap();
        assert_eq!(seat, 0);
        assert_eq!(r.seat_of_token("old"), None, "the old token is worthless");
        assert_eq!(r.seat_of_token(&fresh), Some(0));
        assert_eq!(r.seats[0].connections, 0);
        assert!(matches!(
            r.claim_transfer(&link, "c", 2_001, &mut ch),
            Err(Error::InvalidTransfer)
        ));
        assert_eq!(ch.events, vec![Event::Moved { seat: 0 }]);
    }

    #[test]
    fn a_link_expires_and_a_new_one_replaces_it() {
        let mut r = room();
        let mut ch = Change::default();
        let (first, _) = r.offer_transfer(0, 0).unwrap();
        let (second, _) = r.offer_transfer(0, 0).unwrap();
        assert!(r.claim_transfer(&first, "b", 1, &mut ch).is_err());
        assert!(r
            .claim_transfer(&second, "b", TRANSFER_TTL_MS, &mut ch)
            .is_err());
        assert!(matches!(r.offer_transfer(1, 0), Err(Error::NotSeated)));
        assert!(ch.events.is_empty());
    }
}
