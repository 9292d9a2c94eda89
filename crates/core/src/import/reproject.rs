//! Plane coordinates of Italian municipal datasets to WGS84 degrees: inverse transverse Mercator
//! on the International 1924 ellipsoid, then a 7-parameter Helmert shift of the datum.
//! Monte Mario / Gauss-Boaga (EPSG:3003, 3004) and ED50 / UTM (EPSG:23032, 23033).

/// A transverse Mercator grid on the International 1924 ellipsoid, and its datum's shift to WGS84
/// (position-vector convention: metres, arc-seconds, parts per million).
pub struct Grid {
    pub central_meridian: f64,
    pub false_easting: f64,
    pub false_northing: f64,
    pub scale: f64,
    pub to_wgs84: [f64; 7],
}

/// EPSG:3003 Monte Mario / Italy zone 1, with EPSG:1660 (Monte Mario to WGS 84, mainland Italy).
pub const MONTE_MARIO_ZONE_1: Grid = Grid {
    central_meridian: 9.0,
    false_easting: 1_500_000.0,
    false_northing: 0.0,
    scale: 0.9996,
    to_wgs84: [-104.1, -49.1, -9.9, 0.971, -2.917, 0.714, -11.68],
};

/// EPSG:23032 ED50 / UTM zone 32N, with EPSG:1133 (ED50 to WGS 84, western Europe mean).
pub const ED50_UTM_32: Grid = Grid {
    central_meridian: 9.0,
    false_easting: 500_000.0,
    false_northing: 0.0,
    scale: 0.9996,
    to_wgs84: [-87.0, -98.0, -121.0, 0.0, 0.0, 0.0, 0.0],
};

const INTL_A: f64 = 6_378_388.0;
const INTL_F: f64 = 1.0 / 297.0;
const WGS_A: f64 = 6_378_137.0;
const WGS_F: f64 = 1.0 / 298.257_223_563;

impl Grid {
    /// (easting, northing) in metres → (lat, lon) WGS84 degrees.
    pub fn to_wgs84(&self, easting: f64, northing: f64) -> (f64, f64) {
        let (lat, lon) = self.inverse_tm(easting, northing);
        let (x, y, z) = geodetic_to_ecef(lat, lon, INTL_A, INTL_F);
        let (x, y, z) = helmert(x, y, z, &self.to_wgs84);
        let (lat, lon) = ecef_to_geodetic(x, y, z, WGS_A, WGS_F);
        (lat.to_degrees(), lon.to_degrees())
    }

    fn inverse_tm(&self, easting: f64, northing: f64) -> (f64, f64) {
        inverse_transverse_mercator(
            (INTL_A, INTL_F),
            self.scale,
            easting - self.false_easting,
            northing - self.false_northing,
            self.central_meridian,
        )
    }
}

/// Snyder's inverse transverse Mercator (USGS PP 1395, eq. 8-12 … 8-18) on the ellipsoid `(a, f)`:
/// `x` and `y` are metres from the false origin, `central_meridian` in degrees; answers radians.
/// The Italian Gauss-Boaga grids and the UTM zones of the foreign registers share it.
pub fn inverse_transverse_mercator(
    (a, f): (f64, f64),
    k0: f64,
    x: f64,
    y: f64,
    central_meridian: f64,
) -> (f64, f64) {
    let e2 = f * (2.0 - f);
    let ep2 = e2 / (1.0 - e2);
    let m = y / k0;
    let mu = m / (a * (1.0 - e2 / 4.0 - 3.0 * e2 * e2 / 64.0 - 5.0 * e2.powi(3) / 256.0));
    let e1 = (1.0 - (1.0 - e2).sqrt()) / (1.0 + (1.0 - e2).sqrt());
    let phi1 = mu
        + (3.0 * e1 / 2.0 - 27.0 * e1.powi(3) / 32.0) * (2.0 * mu).sin()
        + (21.0 * e1 * e1 / 16.0 - 55.0 * e1.powi(4) / 32.0) * (4.0 * mu).sin()
        + (151.0 * e1.powi(3) / 96.0) * (6.0 * mu).sin()
        + (1097.0 * e1.powi(4) / 512.0) * (8.0 * mu).sin();
    let (s, c, t) = (phi1.sin(), phi1.cos(), phi1.tan());
    let c1 = ep2 * c * c;
    let t1 = t * t;
    let n1 = a / (1.0 - e2 * s * s).sqrt();
    let r1 = a * (1.0 - e2) / (1.0 - e2 * s * s).powf(1.5);
    let d = x / (n1 * k0);
    let lat = phi1
        - (n1 * t / r1)
            * (d * d / 2.0
                - (5.0 + 3.0 * t1 + 10.0 * c1 - 4.0 * c1 * c1 - 9.0 * ep2) * d.powi(4) / 24.0
                + (61.0 + 90.0 * t1 + 298.0 * c1 + 45.0 * t1 * t1 - 252.0 * ep2 - 3.0 * c1 * c1)
                    * d.powi(6)
                    / 720.0);
    let lon = central_meridian.to_radians()
        + (d - (1.0 + 2.0 * t1 + c1) * d.powi(3) / 6.0
            + (5.0 - 2.0 * c1 + 28.0 * t1 - 3.0 * c1 * c1 + 8.0 * ep2 + 24.0 * t1 * t1)
                * d.powi(5)
                / 120.0)
            / c;
    (lat, lon)
}

fn geodetic_to_ecef(lat: f64, lon: f64, a: f64, f: f64) -> (f64, f64, f64) {
    let e2 = f * (2.0 - f);
    let n = a / (1.0 - e2 * lat.sin().powi(2)).sqrt();
    (
        n * lat.cos() * lon.cos(),
        n * lat.cos() * lon.sin(),
        n * (1.0 - e2) * lat.sin(),
    )
}

fn helmert(x: f64, y: f64, z: f64, p: &[f64; 7]) -> (f64, f64, f64) {
    let arc = std::f64::consts::PI / (180.0 * 3600.0);
    let (rx, ry, rz) = (p[3] * arc, p[4] * arc, p[5] * arc);
    let k = 1.0 + p[6] * 1e-6;
    (
        p[0] + k * (x - rz * y + ry * z),
        p[1] + k * (rz * x + y - rx * z),
        p[2] + k * (-ry * x + rx * y + z),
    )
}

fn ecef_to_geodetic(x: f64, y: f64, z: f64, a: f64, f: f64) -> (f64, f64) {
    let e2 = f * (2.0 - f);
    let p = (x * x + y * y).sqrt();
    let lon = y.atan2(x);
    let mut lat = z.atan2(p * (1.0 - e2));
    for _ in 0..6 {
        let n = a / (1.0 - e2 * lat.sin().powi(2)).sqrt();
        let h = p / lat.cos() - n;
        lat = z.atan2(p * (1.0 - e2 * n / (n + h)));
    }
    (lat, lon)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gauss_boaga_to_wgs84_within_metres_of_proj() {
        // Alessandria row of SOURCES.md, PROJ's answer is in numeri-civici_wgs84.csv.gz
        let (lat, lon) = MONTE_MARIO_ZONE_1.to_wgs84(1472210.82998134, 4978439.947517);
        // within 5 m: 1e-5 degree is about 1.1 m of latitude, 0.8 m of longitude here
        assert!(
            (lat - 44.9586803).abs() < 4e-5 && (lon - 8.6473254).abs() < 5e-5,
            "{lat} {lon}"
        );
    }
}
