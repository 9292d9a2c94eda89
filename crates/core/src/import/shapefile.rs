//! ESRI point shapefiles as municipalities publish their house numbers (`.shp` geometry, `.dbf`
//! attributes, `.prj` grid). Only what a point layer needs is read — a few dozen lines instead of a
//! crate: the `.shp` point records, the `.dbf` character/number fields, and a transverse Mercator
//! grid on the GRS80 ellipsoid (ETRS89 and RDN2008 are within a metre of WGS84, so no datum shift).

use std::io::Read;
use std::path::Path;

use crate::{Error, Result};

/// One attribute row per point, in file order (the `.shp` and `.dbf` share it).
pub struct PointLayer {
    pub fields: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// WGS84 (lat, lon) of each row; `None` for a null shape or an unknown grid.
    pub points: Vec<Option<(f64, f64)>>,
}

impl PointLayer {
    pub fn column(&self, name: &str) -> Option<usize> {
        self.fields
            .iter()
            .position(|f| f.eq_ignore_ascii_case(name))
    }

    /// The three files of a layer, each as published or gzipped (`Addresses_point.dbf.gz`).
    pub fn open(base: &Path) -> Result<Option<PointLayer>> {
        let part = |ext: &str| -> Result<Option<Vec<u8>>> {
            for name in [ext.to_string(), format!("{ext}.gz")] {
                let path = base.with_extension(&name);
                if path.exists() {
                    let mut bytes = Vec::new();
                    super::open_text(&path)?.read_to_end(&mut bytes)?;
                    return Ok(Some(bytes));
                }
            }
            Ok(None)
        };
        let (Some(shp), Some(dbf)) = (part("shp")?, part("dbf")?) else {
            return Ok(None);
        };
        let prj = part("prj")?.unwrap_or_default();
        Self::read(&shp, &dbf, &String::from_utf8_lossy(&prj)).map(Some)
    }

    /// The layer inside a zip (the first `.shp` and the `.dbf`/`.prj` of the same name).
    pub fn open_zip(path: &Path) -> Result<Option<PointLayer>> {
        if !path.exists() {
            return Ok(None);
        }
        let mut zip = zip::ZipArchive::new(std::fs::File::open(path)?)?;
        let Some(stem) = zip
            .file_names()
            .find(|n| n.to_ascii_lowercase().ends_with(".shp"))
            .map(|n| n[..n.len() - 4].to_string())
        else {
            return Ok(None);
        };
        let mut part = |ext: &str| -> Result<Vec<u8>> {
            let mut bytes = Vec::new();
            match zip.by_name(&format!("{stem}.{ext}")) {
                Ok(mut f) => {
                    f.read_to_end(&mut bytes)?;
                }
                Err(zip::result::ZipError::FileNotFound) => {}
                Err(e) => return Err(e.into()),
            }
            Ok(bytes)
        };
        let (shp, dbf, prj) = (part("shp")?, part("dbf")?, part("prj")?);
        Self::read(&shp, &dbf, &String::from_utf8_lossy(&prj)).map(Some)
    }

    pub fn read(shp: &[u8], dbf: &[u8], prj: &str) -> Result<PointLayer> {
        let (fields, rows) = read_dbf(dbf)?;
        let grid = Grid::from_prj(prj);
        let points = read_points(shp)?
            .into_iter()
            .map(|p| p.and_then(|(x, y)| grid.as_ref().map(|g| g.to_wgs84(x, y))))
            .collect();
        Ok(PointLayer {
            fields,
            rows,
            points,
        })
    }
}

fn bad(what: &str) -> Error {
    Error::BadInput(format!("shapefile: {what}"))
}

fn le_u16(b: &[u8], at: usize) -> usize {
    u16::from_le_bytes([b[at], b[at + 1]]) as usize
}

fn le_f64(b: &[u8], at: usize) -> f64 {
    f64::from_le_bytes(b[at..at + 8].try_into().unwrap_or([0; 8]))
}

/// dBASE III: a 32-byte header, 32-byte field descriptors up to 0x0D, then fixed-width records
/// (a deletion flag byte first). Text is UTF-8 when it decodes as such, else Latin-1 (the `.cpg`
/// of older exports is often missing).
fn read_dbf(b: &[u8]) -> Result<(Vec<String>, Vec<Vec<String>>)> {
    if b.len() < 32 {
        return Err(bad("dbf header"));
    }
    let count = u32::from_le_bytes([b[4], b[5], b[6], b[7]]) as usize;
    let (header, record) = (le_u16(b, 8), le_u16(b, 10));
    let mut fields = Vec::new();
    let mut widths = Vec::new();
    let mut at = 32;
    while at + 32 <= header && b[at] != 0x0D {
        let name = &b[at..at + 11];
        let end = name.iter().position(|&c| c == 0).unwrap_or(11);
        fields.push(String::from_utf8_lossy(&name[..end]).trim().to_string());
        widths.push(b[at + 16] as usize);
        at += 32;
    }
    let mut rows = Vec::with_capacity(count);
    for r in 0..count {
        let start = header + r * record;
        let Some(rec) = b.get(start..start + record) else {
            return Err(bad("dbf record beyond the end"));
        };
        if rec[0] == b'*' {
            continue;
        }
        let mut pos = 1;
        let mut row = Vec::with_capacity(widths.len());
        for w in &widths {
            let cell = rec.get(pos..pos + w).unwrap_or(&[]);
            row.push(text(cell).trim().to_string());
            pos += w;
        }
        rows.push(row);
    }
    Ok((fields, rows))
}

fn text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&c| c as char).collect(),
    }
}

/// `.shp` after its 100-byte header: records of a big-endian (number, length in 16-bit words)
/// header and a little-endian shape; type 1 (point) carries x, y; type 0 is a null shape.
fn read_points(b: &[u8]) -> Result<Vec<Option<(f64, f64)>>> {
    let mut out = Vec::new();
    let mut at = 100;
    while at + 8 <= b.len() {
        let words = u32::from_be_bytes([b[at + 4], b[at + 5], b[at + 6], b[at + 7]]) as usize;
        let content = at + 8;
        let Some(shape) = b.get(content..content + words * 2) else {
            return Err(bad("shp record beyond the end"));
        };
        let kind = shape
            .get(..4)
            .map(|k| i32::from_le_bytes([k[0], k[1], k[2], k[3]]));
        // point, pointZ, pointM all begin with x, y
        out.push(match kind {
            Some(1 | 11 | 21) if shape.len() >= 20 => Some((le_f64(shape, 4), le_f64(shape, 12))),
            _ => None,
        });
        at = content + words * 2;
    }
    Ok(out)
}

/// A transverse Mercator grid on GRS80, as a `.prj` (ESRI WKT) states it.
struct Grid {
    central_meridian: f64,
    false_easting: f64,
    false_northing: f64,
    scale: f64,
}

impl Grid {
    fn from_prj(prj: &str) -> Option<Grid> {
        if !prj.contains("Transverse_Mercator") || !prj.contains("GRS_1980") {
            return None;
        }
        let param = |name: &str| -> Option<f64> {
            let at = prj.find(&format!("\"{name}\","))? + name.len() + 3;
            let end = prj[at..].find(']')? + at;
            prj[at..end].trim().parse().ok()
        };
        Some(Grid {
            central_meridian: param("Central_Meridian")?,
            false_easting: param("False_Easting").unwrap_or(500_000.0),
            false_northing: param("False_Northing").unwrap_or(0.0),
            scale: param("Scale_Factor").unwrap_or(0.9996),
        })
    }

    fn to_wgs84(&self, x: f64, y: f64) -> (f64, f64) {
        let (lat, lon) = super::reproject::inverse_transverse_mercator(
            (6_378_137.0, 1.0 / 298.257_222_101),
            self.scale,
            x - self.false_easting,
            y - self.false_northing,
            self.central_meridian,
        );
        (lat.to_degrees(), lon.to_degrees())
    }
}
