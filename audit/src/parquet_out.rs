//! The host rows as Parquet (`hosts.parquet`): the columns, names and
//! types of the Spark job's `hosts.parquet` (`audit/spark/audit_job.py`,
//! `host_schema`): `input`, `n`, `url`, `answer`, `status` (int32),
//! `redirects`, `size`, `cut`, `unresolved`, `fetch` (map of maps),
//! `probes` (list), `named` (map of lists), `verdicts` (map of maps),
//! `departures` (map of structs), `ai` (struct: `content_usage`,
//! `content_signal`, `content_signals` int64, `train_y`, `train_n`
//! boolean), `usage` and `signals` (maps of strings). Maps use Parquet's `key_value` /
//! `key` / `value` names and lists `element`, as Spark writes them.
//!
//! Bounded: rows are buffered [`BATCH`] at a time and row groups close
//! every [`ROW_GROUP`] rows, so memory does not grow with the audit.
//! Written to a temporary and renamed on [`HostSink::finish`]. Knows the
//! row model, nothing of robots.txt.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::builder::{
    ArrayBuilder, BooleanBuilder, Int32Builder, Int64Builder, ListBuilder,
    MapBuilder, MapFieldNames, StringBuilder, StructBuilder,
};
use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, Int64Type};
use arrow_array::{Array, ArrayRef, MapArray, RecordBatch, StructArray};
use arrow_schema::{DataType, Field, Fields, Schema};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::file::properties::WriterProperties;

use crate::error::Error;
use crate::row::{AiLines, Departure, FetchRow, HostRow};

/// The file name.
pub const HOSTS_PARQUET: &str = "hosts.parquet";

/// Rows per record batch.
pub const BATCH: usize = 1024;

/// Rows per row group.
pub const ROW_GROUP: usize = 16 * 1024;

fn names() -> Option<MapFieldNames> {
    Some(MapFieldNames {
        entry: "key_value".into(),
        key: "key".into(),
        value: "value".into(),
    })
}

fn list() -> ListBuilder<StringBuilder> {
    ListBuilder::new(StringBuilder::new()).with_field(Field::new(
        "element",
        DataType::Utf8,
        true,
    ))
}

fn str_map() -> MapBuilder<StringBuilder, StringBuilder> {
    MapBuilder::new(names(), StringBuilder::new(), StringBuilder::new())
}

fn departure_fields() -> Fields {
    let axes =
        MapBuilder::new(names(), StringBuilder::new(), Int64Builder::new())
            .finish();
    Fields::from(vec![
        Field::new("compared", DataType::Int64, true),
        Field::new("departing", DataType::Int64, true),
        Field::new("unanswered", DataType::Int64, true),
        Field::new("axes", axes.data_type().clone(), true),
    ])
}

fn departure() -> StructBuilder {
    StructBuilder::new(
        departure_fields(),
        vec![
            Box::new(Int64Builder::new()),
            Box::new(Int64Builder::new()),
            Box::new(Int64Builder::new()),
            Box::new(MapBuilder::new(
                names(),
                StringBuilder::new(),
                Int64Builder::new(),
            )),
        ],
    )
}

fn ai_fields() -> Fields {
    Fields::from(vec![
        Field::new("content_usage", DataType::Int64, true),
        Field::new("content_signal", DataType::Int64, true),
        Field::new("content_signals", DataType::Int64, true),
        Field::new("train_y", DataType::Boolean, true),
        Field::new("train_n", DataType::Boolean, true),
    ])
}

fn ai_struct() -> StructBuilder {
    StructBuilder::new(
        ai_fields(),
        vec![
            Box::new(Int64Builder::new()),
            Box::new(Int64Builder::new()),
            Box::new(Int64Builder::new()),
            Box::new(BooleanBuilder::new()),
            Box::new(BooleanBuilder::new()),
        ],
    )
}

/// Column builders for one batch.
struct Columns {
    input: StringBuilder,
    n: Int64Builder,
    url: StringBuilder,
    answer: StringBuilder,
    status: Int32Builder,
    redirects: Int64Builder,
    size: Int64Builder,
    cut: BooleanBuilder,
    unresolved: StringBuilder,
    fetch: MapBuilder<StringBuilder, MapBuilder<StringBuilder, StringBuilder>>,
    probes: ListBuilder<StringBuilder>,
    named: MapBuilder<StringBuilder, ListBuilder<StringBuilder>>,
    verdicts:
        MapBuilder<StringBuilder, MapBuilder<StringBuilder, StringBuilder>>,
    departures: MapBuilder<StringBuilder, StructBuilder>,
    ai: StructBuilder,
    usage: MapBuilder<StringBuilder, StringBuilder>,
    signals: MapBuilder<StringBuilder, StringBuilder>,
}

fn n64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

impl Columns {
    fn new() -> Columns {
        Columns {
            input: StringBuilder::new(),
            n: Int64Builder::new(),
            url: StringBuilder::new(),
            answer: StringBuilder::new(),
            status: Int32Builder::new(),
            redirects: Int64Builder::new(),
            size: Int64Builder::new(),
            cut: BooleanBuilder::new(),
            unresolved: StringBuilder::new(),
            fetch: MapBuilder::new(names(), StringBuilder::new(), str_map()),
            probes: list(),
            named: MapBuilder::new(names(), StringBuilder::new(), list()),
            verdicts: MapBuilder::new(
                names(),
                StringBuilder::new(),
                str_map(),
            ),
            departures: MapBuilder::new(
                names(),
                StringBuilder::new(),
                departure(),
            ),
            ai: ai_struct(),
            usage: str_map(),
            signals: str_map(),
        }
    }

    fn len(&self) -> usize {
        self.n.len()
    }

    fn add(&mut self, h: &HostRow) -> Result<(), arrow_schema::ArrowError> {
        self.input.append_value(&h.input);
        self.n.append_value(n64(h.n));
        self.url.append_value(&h.url);
        self.answer.append_value(&h.answer);
        self.status.append_option(h.status.map(i32::from));
        self.redirects.append_value(n64(h.redirects));
        self.size.append_value(n64(h.size));
        self.cut.append_value(h.cut);
        self.unresolved.append_option(h.unresolved.as_deref());
        for (p, f) in &h.fetch {
            self.fetch.keys().append_value(p);
            let inner = self.fetch.values();
            inner.keys().append_value("policy");
            inner.values().append_value(&f.policy);
            inner.keys().append_value("clause");
            inner.values().append_value(&f.clause);
            inner.append(true)?;
        }
        self.fetch.append(true)?;
        for p in &h.probes {
            self.probes.values().append_value(p);
        }
        self.probes.append(true);
        for (p, agents) in &h.named {
            self.named.keys().append_value(p);
            for a in agents {
                self.named.values().values().append_value(a);
            }
            self.named.values().append(true);
        }
        self.named.append(true)?;
        for (p, per_agent) in &h.verdicts {
            self.verdicts.keys().append_value(p);
            let inner = self.verdicts.values();
            for (a, letters) in per_agent {
                inner.keys().append_value(a);
                inner.values().append_value(letters);
            }
            inner.append(true)?;
        }
        self.verdicts.append(true)?;
        for (p, d) in &h.departures {
            self.departures.keys().append_value(p);
            let s = self.departures.values();
            let int = |s: &mut StructBuilder, i: usize, v: usize| {
                if let Some(b) = s.field_builder::<Int64Builder>(i) {
                    b.append_value(n64(v));
                }
            };
            int(s, 0, d.compared);
            int(s, 1, d.departing);
            int(s, 2, d.unanswered);
            if let Some(axes) =
                s.field_builder::<MapBuilder<StringBuilder, Int64Builder>>(3)
            {
                for (axis, n) in &d.axes {
                    axes.keys().append_value(axis);
                    axes.values().append_value(n64(*n));
                }
                axes.append(true)?;
            }
            s.append(true);
        }
        self.departures.append(true)?;
        let ai = &mut self.ai;
        for (i, n) in
            [h.ai.content_usage, h.ai.content_signal, h.ai.content_signals]
                .into_iter()
                .enumerate()
        {
            if let Some(b) = ai.field_builder::<Int64Builder>(i) {
                b.append_value(n64(n));
            }
        }
        for (i, v) in [h.ai.train_y, h.ai.train_n].into_iter().enumerate() {
            if let Some(b) = ai.field_builder::<BooleanBuilder>(3 + i) {
                b.append_value(v);
            }
        }
        ai.append(true);
        for (m, entries) in
            [(&mut self.usage, &h.usage), (&mut self.signals, &h.signals)]
        {
            for (k, v) in entries {
                m.keys().append_value(k);
                m.values().append_value(v);
            }
            m.append(true)?;
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<RecordBatch, arrow_schema::ArrowError> {
        let columns: Vec<(&str, ArrayRef)> = vec![
            ("input", Arc::new(self.input.finish())),
            ("n", Arc::new(self.n.finish())),
            ("url", Arc::new(self.url.finish())),
            ("answer", Arc::new(self.answer.finish())),
            ("status", Arc::new(self.status.finish())),
            ("redirects", Arc::new(self.redirects.finish())),
            ("size", Arc::new(self.size.finish())),
            ("cut", Arc::new(self.cut.finish())),
            ("unresolved", Arc::new(self.unresolved.finish())),
            ("fetch", Arc::new(self.fetch.finish())),
            ("probes", Arc::new(self.probes.finish())),
            ("named", Arc::new(self.named.finish())),
            ("verdicts", Arc::new(self.verdicts.finish())),
            ("departures", Arc::new(self.departures.finish())),
            ("ai", Arc::new(self.ai.finish())),
            ("usage", Arc::new(self.usage.finish())),
            ("signals", Arc::new(self.signals.finish())),
        ];
        RecordBatch::try_from_iter_with_nullable(
            columns.into_iter().map(|(n, a)| (n, a, true)),
        )
    }
}

/// The schema of `hosts.parquet`.
pub fn schema() -> Arc<Schema> {
    // OK: an empty batch of these builders is always well formed.
    Columns::new().finish().expect("empty batch").schema()
}

/// Writes host rows to `hosts.parquet`.
pub struct HostSink {
    path: PathBuf,
    tmp: PathBuf,
    writer: ArrowWriter<File>,
    columns: Columns,
}

impl HostSink {
    /// Starts `path` (written to `path.tmp` until [`HostSink::finish`]).
    pub fn create(path: &Path) -> Result<HostSink, Error> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        let file = File::create(&tmp).map_err(|e| Error::write(&tmp, e))?;
        let props = WriterProperties::builder()
            .set_max_row_group_row_count(Some(ROW_GROUP))
            .build();
        let writer = ArrowWriter::try_new(file, schema(), Some(props))
            .map_err(|e| parquet_error(&tmp, e))?;
        Ok(HostSink {
            path: path.into(),
            tmp,
            writer,
            columns: Columns::new(),
        })
    }

    /// Adds one host row.
    pub fn add(&mut self, h: &HostRow) -> Result<(), Error> {
        self.columns.add(h).map_err(|e| parquet_error(&self.tmp, e))?;
        if self.columns.len() >= BATCH {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), Error> {
        let batch =
            self.columns.finish().map_err(|e| parquet_error(&self.tmp, e))?;
        if batch.num_rows() > 0 {
            self.writer
                .write(&batch)
                .map_err(|e| parquet_error(&self.tmp, e))?;
        }
        Ok(())
    }

    /// Writes the footer and renames the file into place.
    pub fn finish(mut self) -> Result<(), Error> {
        self.flush()?;
        self.writer.close().map_err(|e| parquet_error(&self.tmp, e))?;
        std::fs::rename(&self.tmp, &self.path)
            .map_err(|e| Error::write(&self.path, e))
    }
}

fn parquet_error(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::write(path, std::io::Error::other(e.to_string()))
}

/// Reads `hosts.parquet` back into rows (for checks and tools; holds the
/// file's rows in memory).
pub fn read_hosts(path: &Path) -> Result<Vec<HostRow>, String> {
    let file = File::open(path).map_err(|e| e.to_string())?;
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .and_then(|b| b.build())
        .map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for batch in reader {
        let batch = batch.map_err(|e| e.to_string())?;
        rows_of(&batch, &mut out)?;
    }
    Ok(out)
}

fn col<'a>(b: &'a RecordBatch, name: &str) -> Result<&'a ArrayRef, String> {
    b.column_by_name(name).ok_or_else(|| format!("no column {name}"))
}

fn text(a: &dyn Array, i: usize) -> Option<String> {
    let s = a.as_string_opt::<i32>()?;
    (!s.is_null(i)).then(|| s.value(i).to_string())
}

fn int(a: &dyn Array, i: usize) -> usize {
    a.as_primitive_opt::<Int64Type>()
        .map_or(0, |v| usize::try_from(v.value(i)).unwrap_or(0))
}

/// The entries of map `i` as (key, value array, index) triples.
fn entries(m: &MapArray, i: usize) -> Vec<(String, ArrayRef, usize)> {
    let offsets = m.value_offsets();
    let (start, end) = (offsets[i] as usize, offsets[i + 1] as usize);
    (start..end)
        .map(|j| {
            (text(m.keys(), j).unwrap_or_default(), m.values().clone(), j)
        })
        .collect()
}

fn strings(a: &dyn Array, i: usize) -> Vec<String> {
    let Some(l) = a.as_list_opt::<i32>() else { return Vec::new() };
    let v = l.value(i);
    (0..v.len()).filter_map(|j| text(&v, j)).collect()
}

fn str_map_of(a: &dyn Array, i: usize) -> BTreeMap<String, String> {
    let Some(m) = a.as_map_opt() else { return BTreeMap::new() };
    entries(m, i)
        .into_iter()
        .map(|(k, v, j)| (k, text(&v, j).unwrap_or_default()))
        .collect()
}

fn rows_of(b: &RecordBatch, out: &mut Vec<HostRow>) -> Result<(), String> {
    let map = |name: &str| -> Result<&MapArray, String> {
        col(b, name)?.as_map_opt().ok_or_else(|| format!("{name}: not a map"))
    };
    let (fetch, named, verdicts, departures) =
        (map("fetch")?, map("named")?, map("verdicts")?, map("departures")?);
    let status = col(b, "status")?
        .as_primitive_opt::<Int32Type>()
        .ok_or("status: not int32")?;
    let cut = col(b, "cut")?.as_boolean_opt().ok_or("cut: not boolean")?;
    let ai = col(b, "ai")?.as_struct_opt().ok_or("ai: not a struct")?;
    let (usage, signals) = (col(b, "usage")?, col(b, "signals")?);
    for i in 0..b.num_rows() {
        let fetch = entries(fetch, i)
            .into_iter()
            .map(|(k, v, j)| {
                let f = str_map_of(&v, j);
                let get = |n: &str| f.get(n).cloned().unwrap_or_default();
                (k, FetchRow { policy: get("policy"), clause: get("clause") })
            })
            .collect();
        let named = entries(named, i)
            .into_iter()
            .map(|(k, v, j)| (k, strings(&v, j)))
            .collect();
        let verdicts = entries(verdicts, i)
            .into_iter()
            .map(|(k, v, j)| (k, str_map_of(&v, j)))
            .collect();
        let departures = entries(departures, i)
            .into_iter()
            .map(|(k, v, j)| (k, departure_of(&v, j)))
            .collect();
        out.push(HostRow {
            input: text(col(b, "input")?, i).unwrap_or_default(),
            n: int(col(b, "n")?, i),
            url: text(col(b, "url")?, i).unwrap_or_default(),
            answer: text(col(b, "answer")?, i).unwrap_or_default(),
            status: (!status.is_null(i))
                .then(|| u16::try_from(status.value(i)).unwrap_or(0)),
            redirects: int(col(b, "redirects")?, i),
            size: int(col(b, "size")?, i),
            cut: cut.value(i),
            unresolved: text(col(b, "unresolved")?, i),
            fetch,
            probes: strings(col(b, "probes")?, i),
            named,
            verdicts,
            departures,
            ai: ai_of(ai, i),
            usage: str_map_of(usage, i),
            signals: str_map_of(signals, i),
        });
    }
    Ok(())
}

fn ai_of(s: &StructArray, i: usize) -> AiLines {
    let n = |f: &str| s.column_by_name(f).map_or(0, |c| int(c, i));
    let b = |f: &str| {
        s.column_by_name(f)
            .and_then(|c| c.as_boolean_opt().map(|v| v.value(i)))
            .unwrap_or(false)
    };
    AiLines {
        content_usage: n("content_usage"),
        content_signal: n("content_signal"),
        content_signals: n("content_signals"),
        train_y: b("train_y"),
        train_n: b("train_n"),
    }
}

fn departure_of(a: &dyn Array, j: usize) -> Departure {
    let Some(s) = a.as_struct_opt() else { return Departure::default() };
    let s: &StructArray = s;
    let field = |n: &str| s.column_by_name(n).map(|c| int(c, j)).unwrap_or(0);
    let axes = s
        .column_by_name("axes")
        .and_then(|c| c.as_map_opt())
        .map(|m| {
            entries(m, j)
                .into_iter()
                .map(|(k, v, q)| (k, int(&v, q)))
                .collect()
        })
        .unwrap_or_default();
    Departure {
        compared: field("compared"),
        departing: field("departing"),
        unanswered: field("unanswered"),
        axes,
    }
}
