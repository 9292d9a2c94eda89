//! Plane coordinates of national registers to WGS84 degrees. ETRS89 and WGS84 agree within a
//! metre, so UTM on the GRS80 ellipsoid needs no datum shift; the Dutch RD grid uses the
//! published polynomial approximation (Schreutelkamp & Strang van Hees), good to a metre.

const A: f64 = 6_378_137.0;
const F: f64 = 1.0 / 298.257_222_101;

/// UTM zone `zone` north (EPSG:258zz, 326zz) → (lat, lon).
pub fn utm_to_wgs84(zone: u8, easting: f64, northing: f64) -> (f64, f64) {
    let central_meridian = f64::from(zone) * 6.0 - 183.0;
    let (lat, lon) = crate::import::reproject::inverse_transverse_mercator(
        (A, F),
        0.9996,
        easting - 500_000.0,
        northing,
        central_meridian,
    );
    (lat.to_degrees(), lon.to_degrees())
}

/// Dutch RD New (EPSG:28992) → (lat, lon).
pub fn rd_to_wgs84(x: f64, y: f64) -> (f64, f64) {
    let dx = (x - 155_000.0) * 1e-5;
    let dy = (y - 463_000.0) * 1e-5;
    let lat = 52.156_160_556
        + (3235.65389 * dy
            - 32.58297 * dx * dx
            - 0.2475 * dy * dy
            - 0.84978 * dx * dx * dy
            - 0.0655 * dy.powi(3)
            - 0.01709 * dx * dx * dy * dy
            - 0.00738 * dx
            + 0.0053 * dx.powi(4)
            - 0.00039 * dx * dx * dy.powi(3)
            + 0.00033 * dx.powi(4) * dy
            - 0.00012 * dx * dy)
            / 3600.0;
    let lon = 5.387_638_889
        + (5260.52916 * dx + 105.94684 * dx * dy + 2.45656 * dx * dy * dy - 0.81885 * dx.powi(3)
            + 0.05594 * dx * dy.powi(3)
            - 0.05607 * dx.powi(3) * dy
            + 0.01199 * dy
            - 0.00256 * dx.powi(3) * dy * dy
            + 0.00128 * dx * dy.powi(4)
            + 0.00022 * dy * dy
            - 0.00022 * dx * dx
            + 0.00026 * dx.powi(5))
            / 3600.0;
    (lat, lon)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utm_32_lands_in_copenhagen_and_rd_in_amersfoort() {
        // DAR access point 0101000020E8640000D7A370BDF0FD2041713D0A0777665741: (720632.37, 6135260.11)
        let (lat, lon) = utm_to_wgs84(32, 720_632.37, 6_135_260.11);
        assert!(
            (lat - 55.31).abs() < 0.2 && (lon - 12.45).abs() < 0.3,
            "{lat} {lon}"
        );
        let (lat, lon) = rd_to_wgs84(155_000.0, 463_000.0);
        assert!((lat - 52.15616).abs() < 1e-4 && (lon - 5.38764).abs() < 1e-4);
    }
}
