//! Charts drawn on the server as SVG with plotters' SVG backend, so they
//! show with JavaScript off and cost the wasm bundle nothing. Pages embed the
//! returned markup; plotters escapes every text it writes (model names come
//! from uploaded files).
//!
//! - [`grouped_bars`]: one group of bars per column (the six classes and
//!   overall), one bar per entry, with a ± std whisker where the std comes
//!   from at least [`MIN_RUNS_FOR_WHISKERS`] runs (a note says so where one is
//!   left out), on the scale of the table beside it ([`Axis`]).
//! - [`scatter`]: points per entry (Figure 3: a score per cause against the
//!   cause's complexity) with each entry's least-squares line.
//!
//! Every chart is drawn at the width it is shown at on a desktop screen
//! (its `viewBox`, and a `max-width` of as many pixels, so it never grows
//! and only shrinks on narrow screens), and every text is at least
//! [`MIN_TEXT_PX`] pixels there. Group labels wrap between words (or
//! between CJK characters), never inside a Latin word.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One entry's bars: its name, per group the mean and the std, and how many
/// runs the stds are taken over.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub name: String,
    pub values: Vec<Option<(f64, Option<f64>)>>,
    pub runs: usize,
}

/// The value axis of a bar chart: its label and its top, on the scale of
/// the table the chart sits beside (1 for 0–1 scores, 100 for ×100 scores,
/// the largest count for counts). Values are given on that scale too.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Axis<'a> {
    pub label: &'a str,
    pub max: f64,
}

/// The fewest runs a ± std whisker is drawn from: with one or two runs a
/// sample std says next to nothing about the spread.
pub const MIN_RUNS_FOR_WHISKERS: usize = 3;

/// The smallest text, in CSS pixels at the chart's own width.
pub const MIN_TEXT_PX: f64 = 11.0;

/// Colour-blind-safe (Okabe–Ito) colours for the entries, in order.
const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
    RGBColor(240, 228, 66),
    RGBColor(0, 0, 0),
];

const FONT: &str = "sans-serif";
/// Plotters writes a font of size `s` as `font-size = s / 1.24`; these give
/// 12.1 px for text and 15.3 px for titles.
const TEXT: f64 = 15.0;
const TITLE: f64 = 19.0;
/// The font size plotters writes for [`TEXT`].
const TEXT_PX: f64 = TEXT / 1.24;
/// One legend row.
const LEGEND_ROW: u32 = 24;
/// The width of one legend entry.
const LEGEND_COLUMN: u32 = 280;

fn text(size: f64) -> TextStyle<'static> {
    TextStyle::from((FONT, size).into_font())
}

/// Grouped bars of `series` over `groups`, on `axis`. The axis runs from 0
/// to its top, or below 0 when a value is negative (kappa). An empty string
/// when there is nothing to draw or drawing fails.
pub fn grouped_bars(title: &str, groups: &[String], series: &[Series], axis: Axis) -> String {
    if groups.is_empty() || series.is_empty() {
        return String::new();
    }
    let width = 900;
    let note = whiskers_left_out(series).then(|| {
        crate::components::i18n::lang().t(
            "误差线（± 标准差）仅在条目有 3 次及以上运行时显示。",
            "± std whiskers are drawn only for entries with 3 or more runs.",
        )
    });
    let legend_height = legend_height(series.len(), width) + note.map_or(0, |_| LEGEND_ROW);
    let size = (width, 380 + legend_height);
    let mut svg = String::new();
    if let Err(e) = draw_bars(&mut svg, size, title, groups, series, axis, note) {
        tracing::warn!("cannot draw the bar chart {title:?}: {e}");
        return String::new();
    }
    responsive(svg, size, title)
}

/// Whether some entry has a std but too few runs for its whisker.
fn whiskers_left_out(series: &[Series]) -> bool {
    series.iter().any(|s| {
        s.runs < MIN_RUNS_FOR_WHISKERS && s.values.iter().flatten().any(|(_, std)| std.is_some())
    })
}

fn legend_height(entries: usize, width: u32) -> u32 {
    LEGEND_ROW * entries.div_ceil(legend_columns(width)) as u32
}

fn legend_columns(width: u32) -> usize {
    (((width - 70) / LEGEND_COLUMN) as usize).max(1)
}

/// The ticks' format: one decimal on a 0–1 axis, whole numbers above.
fn tick(max: f64) -> impl Fn(&f64) -> String {
    move |v: &f64| {
        if max <= 1.0 {
            format!("{v:.1}")
        } else {
            format!("{v:.0}")
        }
    }
}

fn draw_bars(
    svg: &mut String,
    size: (u32, u32),
    title: &str,
    groups: &[String],
    series: &[Series],
    axis: Axis,
    note: Option<&str>,
) -> Result<(), Box<dyn std::error::Error>> {
    let lowest = series
        .iter()
        .flat_map(|s| s.values.iter().flatten())
        .map(|(mean, std)| mean - std.unwrap_or(0.0))
        .fold(0.0_f64, f64::min);
    let step = axis.max / 10.0;
    let y_min = if lowest < 0.0 {
        (lowest / step).floor() * step
    } else {
        0.0
    };
    let root = SVGBackend::with_string(svg, size).into_drawing_area();
    root.fill(&WHITE)?;
    let legend_height = legend_height(series.len(), size.0) + note.map_or(0, |_| LEGEND_ROW);
    let (plot, legend) = root.split_vertically(size.1 - legend_height - 8);
    let n = groups.len() as f64;
    let y_label_area = 64;
    // Group labels wrap onto a second line where a group is too narrow for
    // them (twelve Chinese category names side by side), never overlapping.
    let group_width = (f64::from(size.0) - f64::from(y_label_area) - 24.0) / n;
    let lines: Vec<Vec<String>> = groups
        .iter()
        .map(|g| wrap(g, group_width - 6.0, TEXT_PX))
        .collect();
    let two_lines = lines.iter().any(|l| l.len() > 1);
    let mut chart = ChartBuilder::on(&plot)
        .caption(title, (FONT, TITLE))
        .margin(12)
        .x_label_area_size(if two_lines { 56 } else { 36 })
        .y_label_area_size(y_label_area)
        .build_cartesian_2d(0.0..n, y_min..axis.max)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .disable_x_axis()
        .x_labels(0)
        .y_desc(axis.label)
        .y_label_formatter(&tick(axis.max))
        .label_style(text(TEXT))
        .axis_desc_style(text(TEXT))
        .light_line_style(RGBColor(238, 241, 245))
        .draw()?;

    let width = 0.8 / series.len() as f64;
    for (k, s) in series.iter().enumerate() {
        let colour = PALETTE[k % PALETTE.len()];
        let left = |g: usize| g as f64 + 0.1 + width * k as f64;
        chart.draw_series(s.values.iter().enumerate().filter_map(|(g, v)| {
            let (mean, _) = (*v)?;
            Some(Rectangle::new(
                [(left(g), 0.0_f64.max(y_min)), (left(g) + width * 0.9, mean)],
                colour.filled(),
            ))
        }))?;
        if s.runs < MIN_RUNS_FOR_WHISKERS {
            continue;
        }
        chart.draw_series(s.values.iter().enumerate().filter_map(|(g, v)| {
            let (mean, std) = (*v)?;
            let std = std?;
            let x = left(g) + width * 0.45;
            Some(PathElement::new(
                vec![(x, mean - std), (x, mean + std)],
                BLACK.stroke_width(1),
            ))
        }))?;
    }
    let centred = text(TEXT).pos(Pos::new(HPos::Center, VPos::Top));
    let below = chart.plotting_area().get_pixel_range().1.end;
    for (g, label) in lines.iter().enumerate() {
        let (x, _) = chart.backend_coord(&(g as f64 + 0.5, y_min));
        for (i, line) in label.iter().enumerate() {
            root.draw(&Text::new(
                line.clone(),
                (x, below + 6 + 18 * i as i32),
                centred.clone(),
            ))?;
        }
    }
    let columns = legend_columns(size.0);
    for (k, s) in series.iter().enumerate() {
        let colour = PALETTE[k % PALETTE.len()];
        let x = 70 + (LEGEND_COLUMN as usize * (k % columns)) as i32;
        let y = 4 + (LEGEND_ROW as usize * (k / columns)) as i32;
        legend.draw(&Rectangle::new([(x, y), (x + 14, y + 14)], colour.filled()))?;
        legend.draw(&Text::new(s.name.clone(), (x + 20, y), text(TEXT)))?;
    }
    if let Some(note) = note {
        let y = 4 + (LEGEND_ROW as usize * series.len().div_ceil(columns)) as i32;
        legend.draw(&Text::new(note.to_owned(), (70, y), text(TEXT)))?;
    }
    root.present()?;
    Ok(())
}

/// One entry's points of a [`scatter`].
#[derive(Debug, Clone, PartialEq)]
pub struct Points {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

/// A scatter of `series` (y from 0 to 1), each entry in its colour with its
/// least-squares line, `x_label` and `y_label` on the axes, drawn 560 wide
/// so that two sit side by side on a desktop screen. An empty string when
/// there is no point or drawing fails.
pub fn scatter(title: &str, series: &[Points], x_label: &str, y_label: &str) -> String {
    let xs: Vec<f64> = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .collect();
    if xs.is_empty() {
        return String::new();
    }
    let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let pad = ((hi - lo) * 0.05).max(0.1);
    let mut svg = String::new();
    let width = 560;
    let size = (width, 380 + legend_height(series.len(), width));
    let range = (lo - pad, hi + pad);
    if let Err(e) = draw_scatter(&mut svg, size, title, series, range, (x_label, y_label)) {
        tracing::warn!("cannot draw the scatter {title:?}: {e}");
        return String::new();
    }
    responsive(svg, size, title)
}

fn draw_scatter(
    svg: &mut String,
    size: (u32, u32),
    title: &str,
    series: &[Points],
    (x_min, x_max): (f64, f64),
    (x_label, y_label): (&str, &str),
) -> Result<(), Box<dyn std::error::Error>> {
    let root = SVGBackend::with_string(svg, size).into_drawing_area();
    root.fill(&WHITE)?;
    let legend_height = legend_height(series.len(), size.0);
    let (plot, legend) = root.split_vertically(size.1 - legend_height - 8);
    let mut chart = ChartBuilder::on(&plot)
        .caption(title, (FONT, TITLE))
        .margin(12)
        .x_label_area_size(52)
        .y_label_area_size(64)
        .build_cartesian_2d(x_min..x_max, 0.0..1.0)?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .x_label_formatter(&|v| format!("{v:.1}"))
        .y_label_formatter(&|v| format!("{v:.1}"))
        .label_style(text(TEXT))
        .axis_desc_style(text(TEXT))
        .light_line_style(RGBColor(238, 241, 245))
        .draw()?;
    for (k, s) in series.iter().enumerate() {
        let colour = PALETTE[k % PALETTE.len()];
        chart.draw_series(
            s.points
                .iter()
                .map(|&(x, y)| Circle::new((x, y), 4, colour.filled())),
        )?;
        if let Some((slope, intercept)) = least_squares(&s.points) {
            let at = |x: f64| (x, (slope * x + intercept).clamp(0.0, 1.0));
            chart.draw_series(std::iter::once(PathElement::new(
                vec![at(x_min), at(x_max)],
                colour.stroke_width(2),
            )))?;
        }
    }
    let columns = legend_columns(size.0);
    for (k, s) in series.iter().enumerate() {
        let colour = PALETTE[k % PALETTE.len()];
        let x = 70 + (LEGEND_COLUMN as usize * (k % columns)) as i32;
        let y = 4 + (LEGEND_ROW as usize * (k / columns)) as i32;
        legend.draw(&Circle::new((x + 7, y + 7), 6, colour.filled()))?;
        legend.draw(&Text::new(s.name.clone(), (x + 20, y), text(TEXT)))?;
    }
    root.present()?;
    Ok(())
}

/// Slope and intercept of the least-squares line through `points`; `None`
/// with fewer than two distinct x.
fn least_squares(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    let n = points.len() as f64;
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    (sxx > 0.0).then(|| {
        let slope = sxy / sxx;
        (slope, my - slope * mx)
    })
}

/// The width of `text` at `font_px`, estimated: a CJK (full-width)
/// character is one em, anything else about 0.6 em (sans-serif's average).
fn text_width(text: &str, font_px: f64) -> f64 {
    text.chars()
        .map(|c| if is_wide(c) { 1.0 } else { 0.6 })
        .sum::<f64>()
        * font_px
}

/// Whether `c` is written full width (CJK ideographs, kana, hangul, and
/// full-width punctuation): a line may break beside it.
fn is_wide(c: char) -> bool {
    matches!(u32::from(c),
        0x1100..=0x115F | 0x2E80..=0x303E | 0x3041..=0x33FF | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF | 0xA000..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6)
}

/// `label` split where a line may break: after each space-separated Latin
/// word (with its space) and around each wide character; never inside a
/// Latin word.
fn pieces(label: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut word = String::new();
    for c in label.chars() {
        if is_wide(c) {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            out.push(c.to_string());
        } else {
            word.push(c);
            if c == ' ' {
                out.push(std::mem::take(&mut word));
            }
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// `label` in lines at most `width` pixels wide at `font_px`, two at most
/// (the second ends in `…` when the label is longer still), broken between
/// words or CJK characters only: a single word wider than a line keeps its
/// line to itself rather than being cut.
fn wrap(label: &str, width: f64, font_px: f64) -> Vec<String> {
    let fits = |line: &str| text_width(line.trim_end(), font_px) <= width;
    let mut lines: Vec<Vec<String>> = vec![Vec::new()];
    let mut rest = pieces(label).into_iter().peekable();
    while let Some(piece) = rest.peek() {
        let line = lines.last_mut().expect("a line");
        if line.is_empty() || fits(&format!("{}{piece}", line.concat())) {
            line.extend(rest.next());
        } else if lines.len() == 2 {
            break;
        } else {
            lines.push(Vec::new());
        }
    }
    let cut = rest.peek().is_some();
    if cut {
        let second = lines.last_mut().expect("a line");
        while second.len() > 1 && !fits(&format!("{}…", second.concat().trim_end())) {
            second.pop();
        }
    }
    let mut out: Vec<String> = lines
        .iter()
        .map(|l| l.concat().trim_end().to_owned())
        .collect();
    if cut {
        if let Some(last) = out.last_mut() {
            last.push('…');
        }
    }
    out
}

/// The SVG scaled to its container's width but never beyond its own: a
/// `viewBox` instead of a fixed size and a `max-width` of its width in
/// pixels (so its text is as large as drawn wherever there is room), and a
/// role and name (the title) for screen readers.
fn responsive(svg: String, (w, h): (u32, u32), title: &str) -> String {
    let name = html_escape::encode_double_quoted_attribute(title);
    svg.replacen(
        &format!("width=\"{w}\" height=\"{h}\""),
        &format!("viewBox=\"0 0 {w} {h}\" style=\"max-width: {w}px\" class=\"chart\" role=\"img\" aria-label=\"{name}\""),
        1,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const UNIT: Axis = Axis {
        label: "Macro-F1",
        max: 1.0,
    };

    /// The texts of an SVG, as written between its `<text …>` tags.
    fn texts(svg: &str) -> Vec<String> {
        svg.split("<text")
            .skip(1)
            .filter_map(|t| {
                let body = &t[t.find('>')? + 1..t.find("</text>")?];
                Some(body.trim().to_owned())
            })
            .collect()
    }

    /// Every `font-size` an SVG writes.
    fn font_sizes(svg: &str) -> Vec<f64> {
        svg.split("font-size=\"")
            .skip(1)
            .filter_map(|t| t[..t.find('"')?].parse().ok())
            .collect()
    }

    fn series(name: &str, values: Vec<Option<(f64, Option<f64>)>>, runs: usize) -> Series {
        Series {
            name: name.into(),
            values,
            runs,
        }
    }

    #[test]
    fn labels_wrap_between_words_or_cjk_characters_never_inside_a_word() {
        let px = 12.0;
        // Eight Latin characters' room: the old rule cut "Real Rig/hts".
        assert_eq!(wrap("Real Rights", 8.0 * 0.6 * px, px), ["Real", "Rights"]);
        assert_eq!(wrap("Real Rights", 200.0, px), ["Real Rights"]);
        assert_eq!(wrap("婚姻家事", 5.0 * px, px), ["婚姻家事"]);
        assert_eq!(wrap("法律时效敏感度", 5.0 * px, px), ["法律时效敏", "感度"]);
        // A word wider than a line keeps a line to itself, whole.
        assert_eq!(wrap("Extraordinarily", 30.0, px), ["Extraordinarily"]);
        // Too long for two lines: the second ends in an ellipsis after a
        // whole word.
        let cut = wrap(
            "Finance and Commercial Contract Disputes",
            12.0 * 0.6 * px,
            px,
        );
        assert_eq!(cut, ["Finance and", "Commercial…"]);
        assert_eq!(wrap("合同 Contract", 5.0 * px, px), ["合同", "Contract"]);
    }

    #[test]
    fn no_chart_label_is_a_piece_of_a_word() {
        let groups: Vec<String> = [
            "Family",
            "Real Rights",
            "Tort",
            "Service Contract",
            "Finance Contract",
            "Miscellaneous",
            "Overall",
        ]
        .map(String::from)
        .to_vec();
        let values = vec![Some((0.5, Some(0.02))); groups.len()];
        let many: Vec<Series> = (0..8)
            .map(|k| series(&format!("Model {k}"), values.clone(), 3))
            .collect();
        let svg = grouped_bars("LCA Macro-F1 per class", &groups, &many, UNIT);
        let words: Vec<&str> = groups.iter().flat_map(|g| g.split(' ')).collect();
        for text in texts(&svg) {
            if text.starts_with("Model") || text.contains('.') || text.contains("Macro-F1") {
                continue;
            }
            for word in text.split(' ') {
                assert!(
                    words.contains(&word),
                    "{word:?} is a piece of a label: {svg}"
                );
            }
        }
    }

    #[test]
    fn text_is_at_least_11_px_where_the_chart_is_shown_at_its_own_width() {
        let groups = vec!["Family".to_owned(), "Overall".to_owned()];
        let bars = grouped_bars(
            "LCA",
            &groups,
            &[series("A", vec![Some((0.5, Some(0.1))), None], 5)],
            UNIT,
        );
        let points = scatter(
            "DCG",
            &[Points {
                name: "A".into(),
                points: vec![(2.0, 0.8), (4.0, 0.6)],
            }],
            "provisions",
            "accuracy",
        );
        for (svg, width) in [(&bars, 900), (&points, 560)] {
            assert!(
                svg.contains(&format!("viewBox=\"0 0 {width} "))
                    && svg.contains(&format!("style=\"max-width: {width}px\"")),
                "drawn at the width it is shown at: {svg}"
            );
            let sizes = font_sizes(svg);
            assert!(!sizes.is_empty());
            assert!(
                sizes.iter().all(|&s| s >= MIN_TEXT_PX),
                "font sizes {sizes:?}"
            );
        }
    }

    #[test]
    fn the_value_axis_is_on_the_scale_of_the_table() {
        let groups = vec!["个人生活".to_owned()];
        let hundred = Axis {
            label: "acc ×100",
            max: 100.0,
        };
        let svg = grouped_bars(
            "Task 2",
            &groups,
            &[series("A", vec![Some((72.5, None))], 2)],
            hundred,
        );
        let ticks = texts(&svg);
        assert!(ticks.iter().any(|t| t == "100"), "{ticks:?}");
        assert!(!ticks.iter().any(|t| t == "1.0"), "{ticks:?}");
        let unit = grouped_bars(
            "Task 2",
            &groups,
            &[series("A", vec![Some((0.725, None))], 2)],
            UNIT,
        );
        assert!(texts(&unit).iter().any(|t| t == "1.0"));
    }

    #[test]
    fn whiskers_need_three_runs_and_a_note_says_so() {
        let groups = vec!["Family".to_owned(), "Overall".to_owned()];
        let values = vec![Some((0.5, Some(0.1))), Some((0.6, Some(0.05)))];
        let with = |runs| grouped_bars("LCA", &groups, &[series("A", values.clone(), runs)], UNIT);
        let paths = |svg: &str| svg.matches("<polyline").count();
        let (three, two) = (with(3), with(2));
        assert_eq!(
            paths(&three),
            paths(&two) + 2,
            "one whisker per bar at 3 runs"
        );
        assert!(!texts(&three).iter().any(|t| t.contains("3 or more runs")));
        assert!(
            texts(&two).iter().any(|t| t.contains("3 or more runs")),
            "{two}"
        );
        // Without a std there is nothing to leave out, and nothing to say.
        let plain = grouped_bars(
            "LCA",
            &groups,
            &[series("A", vec![Some((0.5, None)); 2], 1)],
            UNIT,
        );
        assert!(!texts(&plain).iter().any(|t| t.contains("runs")));
    }

    #[test]
    fn bars_draw_one_rectangle_per_value_and_escape_names() {
        let groups = vec!["Family".to_owned(), "Overall".to_owned()];
        let series = vec![
            series(
                "<script>alert(1)</script>",
                vec![Some((0.5, Some(0.1))), None],
                3,
            ),
            series("模型乙", vec![Some((0.7, None)), Some((-0.2, None))], 3),
        ];
        let svg = grouped_bars("LCA Macro-F1", &groups, &series, UNIT);
        assert!(svg.starts_with("<svg"), "{svg}");
        assert!(svg.contains("viewBox=\"0 0 900"));
        assert!(!svg.contains("<script>"));
        assert!(svg.contains("&lt;script&gt;"));
        assert!(svg.contains("模型乙"));
        // Three bars and two legend swatches, plus the background.
        let filled_rects = svg.matches("<rect").count();
        assert!(filled_rects >= 5, "{filled_rects} rects");
        assert_eq!(grouped_bars("x", &[], &[], UNIT), "");
    }

    #[test]
    fn scatters_draw_each_point_and_a_line_per_entry() {
        let series = vec![
            Points {
                name: "模型甲".into(),
                points: vec![(2.0, 0.8), (4.0, 0.6), (6.0, 0.4)],
            },
            Points {
                name: "B".into(),
                points: vec![(3.0, 0.5)],
            },
        ];
        let svg = scatter("DCG", &series, "provisions", "accuracy");
        assert!(svg.starts_with("<svg"), "{svg}");
        // Four points and two legend dots.
        assert_eq!(svg.matches("<circle").count(), 6, "{svg}");
        // One entry has a line (two distinct x), the other not.
        assert_eq!(least_squares(&series[1].points), None);
        let (slope, intercept) = least_squares(&series[0].points).unwrap();
        assert!((slope + 0.1).abs() < 1e-12 && (intercept - 1.0).abs() < 1e-12);
        assert!(scatter("empty", &[], "x", "y").is_empty());
    }
}
