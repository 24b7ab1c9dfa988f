//! `--timings`: where a build's time went, as cargo's `--timings` shows it: an HTML page with
//! one bar per step on a time line (its wait for a free job drawn before it, the critical
//! path marked, cache hits and fresh steps in their own colours) and the same data as JSON.
//! The page is one self-contained file: the data is embedded and drawn by a short script.

use std::path::{Path, PathBuf};

use crate::exec::Summary;

/// The report's data: the run's summary and what it was a build of.
#[derive(serde::Serialize)]
pub struct Timings<'a> {
    pub title: &'a str,
    pub jobs: usize,
    #[serde(flatten)]
    pub summary: &'a Summary,
}

/// The HTML page for a report.
pub fn html(t: &Timings) -> String {
    // `</` never appears inside the embedded JSON's strings as a tag would.
    let data = serde_json::to_string(t)
        .unwrap_or_default()
        .replace("</", "<\\/");
    PAGE.replace("{{TITLE}}", &escape(t.title))
        .replace("{{DATA}}", &data)
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Writes `DIR/rkbuild-timings.html` and `.json`; returns the page's path.
pub fn write(dir: &Path, t: &Timings) -> anyhow::Result<PathBuf> {
    let page = dir.join("rkbuild-timings.html");
    crate::fsutil::write_if_changed(&page, html(t).as_bytes())?;
    crate::fsutil::write_if_changed(
        &dir.join("rkbuild-timings.json"),
        &serde_json::to_vec_pretty(t)?,
    )?;
    Ok(page)
}

const PAGE: &str = r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>rkbuild timings: {{TITLE}}</title>
<style>
body { font: 13px/1.4 sans-serif; margin: 16px; color: #222; }
h1 { font-size: 18px; margin: 0 0 8px; }
table.sum td { padding: 1px 12px 1px 0; }
#chart { position: relative; margin-top: 12px; }
.row { position: relative; height: 16px; border-bottom: 1px solid #f0f0f0; }
.label { position: absolute; left: 0; width: 330px; overflow: hidden; white-space: nowrap;
  text-overflow: ellipsis; font-family: monospace; font-size: 11px; }
.lane { position: absolute; left: 340px; right: 60px; top: 2px; height: 12px; }
.bar { position: absolute; height: 12px; min-width: 2px; border-radius: 2px; }
.wait { position: absolute; height: 4px; top: 4px; background: #ddd; }
.built { background: #4a90d9; } .cached { background: #4caf50; } .fresh { background: #bbb; }
.failed { background: #d9534f; } .skipped { background: #eee; }
.critical { outline: 2px solid #e67e22; }
.ms { position: absolute; right: 0; width: 56px; text-align: right; font-size: 11px; color: #666; }
.legend span { display: inline-block; padding: 0 8px; margin-right: 6px; color: #fff; border-radius: 2px; }
</style></head><body>
<h1>rkbuild timings: {{TITLE}}</h1>
<table class="sum" id="sum"></table>
<p class="legend"><span class="built">built</span><span class="cached">from the cache</span>
<span class="fresh" style="color:#222">up to date</span><span class="failed">failed</span>
<span style="color:#222;outline:2px solid #e67e22">critical path</span>
<span style="color:#222;background:#ddd">waiting for a free job</span></p>
<div id="chart"></div>
<script type="application/json" id="data">{{DATA}}</script>
<script>
const d = JSON.parse(document.getElementById("data").textContent);
const wall = Math.max(d.wall_ms, 1);
const crit = new Set(d.critical_path);
const s = (ms) => (ms / 1000).toFixed(2) + " s";
const sum = document.getElementById("sum");
for (const [k, v] of [["steps", d.steps.length], ["built", d.built], ["from the cache", d.cached],
    ["up to date", d.fresh], ["jobs", d.jobs], ["wall time", s(d.wall_ms)],
    ["sum of step times", s(d.sum_ms)], ["critical path", s(d.critical_path_ms)],
    ["parallelism", (d.sum_ms / wall).toFixed(2)]]) {
  const tr = sum.insertRow(); tr.insertCell().textContent = k; tr.insertCell().textContent = v;
}
const chart = document.getElementById("chart");
const steps = [...d.steps].sort((a, b) => a.start_ms - b.start_ms);
for (const st of steps) {
  const row = document.createElement("div"); row.className = "row";
  const label = document.createElement("div"); label.className = "label";
  label.textContent = st.tag.trim() + " " + st.id; label.title = st.why; row.appendChild(label);
  const lane = document.createElement("div"); lane.className = "lane";
  if (st.start_ms > st.ready_ms) {
    const w = document.createElement("div"); w.className = "wait";
    w.style.left = (100 * st.ready_ms / wall) + "%";
    w.style.width = (100 * (st.start_ms - st.ready_ms) / wall) + "%";
    w.title = "waited " + s(st.start_ms - st.ready_ms) + " for a free job"; lane.appendChild(w);
  }
  const bar = document.createElement("div");
  bar.className = "bar " + st.status + (crit.has(st.id) ? " critical" : "");
  bar.dataset.id = st.id;
  bar.style.left = (100 * st.start_ms / wall) + "%";
  bar.style.width = (100 * st.duration_ms / wall) + "%";
  bar.title = st.id + ": " + st.status + ", " + s(st.duration_ms) + " (" + st.why + ")";
  lane.appendChild(bar); row.appendChild(lane);
  const ms = document.createElement("div"); ms.className = "ms"; ms.textContent = s(st.duration_ms);
  row.appendChild(ms); chart.appendChild(row);
}
</script></body></html>
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_is_embedded_safely() {
        let summary = Summary {
            steps: vec![],
            built: 0,
            fresh: 0,
            cached: 0,
            wall_ms: 0,
            sum_ms: 0,
            critical_path_ms: 0,
            critical_path: vec!["</script><b>".into()],
        };
        let page = html(&Timings {
            title: "a <b> & c",
            jobs: 2,
            summary: &summary,
        });
        assert!(page.contains("a &lt;b&gt; &amp; c"));
        assert!(!page.contains("</script><b>"));
        assert_eq!(page.matches("</script>").count(), 2);
    }
}
