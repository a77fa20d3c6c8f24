//! QR codes of room links, as SVG.

use qrcode::render::svg;
use qrcode::{EcLevel, QrCode};

/// An SVG image of a QR code encoding `text`.
///
/// # Errors
/// If `text` is too long for a QR code.
pub fn svg(text: &str) -> Result<String, qrcode::types::QrError> {
    let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::M)?;
    Ok(code
        .render::<svg::Color<'_>>()
        .min_dimensions(200, 200)
        .dark_color(svg::Color("#000000"))
        .light_color(svg::Color("#ffffff"))
        .quiet_zone(true)
        .build())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_room_link_makes_an_svg() {
        let svg = super::svg("http://127.0.0.1:8080/r/K7M2QX").unwrap();
        assert!(
            svg.starts_with("<?xml") && svg.contains("<svg") && svg.contains("</svg>"),
            "{svg}"
        );
    }
}
