//! Charts drawn on the server as SVG with plotters' SVG backend, so they
//! show with JavaScript off and cost the wasm bundle nothing. Pages embed the
//! returned markup; plotters escapes every text it writes (model names come
//! from uploaded files).
//!
//! - [`grouped_bars`]: one group of bars per column (the six classes and
//!   overall), one bar per entry, with a ± std whisker.
//! - [`scatter`]: points per entry (Figure 3: a score per cause against the
//!   cause's complexity) with each entry's least-squares line.
//! - [`heatmap`]: a square count matrix (the 3×3 LJP confusion matrix),
//!   darker for larger counts, each cell labelled with its count.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One entry's bars: its name and, per group, the mean and the std.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub name: String,
    pub values: Vec<Option<(f64, Option<f64>)>>,
}

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

/// Grouped bars of `series` over `groups`, with `y_label` on the value axis.
/// The axis runs from 0 to 1, or below 0 when a value is negative (kappa).
/// An empty string when there is nothing to draw or drawing fails.
pub fn grouped_bars(title: &str, groups: &[String], series: &[Series], y_label: &str) -> String {
    if groups.is_empty() || series.is_empty() {
        return String::new();
    }
    let mut svg = String::new();
    let legend_rows = series.len().div_ceil(3) as u32;
    let size = (900, 360 + 22 * legend_rows);
    if let Err(e) = draw_bars(&mut svg, size, title, groups, series, y_label) {
        tracing::warn!("cannot draw the bar chart {title:?}: {e}");
        return String::new();
    }
    responsive(svg, size, title)
}

fn draw_bars(
    svg: &mut String,
    size: (u32, u32),
    title: &str,
    groups: &[String],
    series: &[Series],
    y_label: &str,
) -> Result<(), Box<dyn std::error::Error>> {
    let lowest = series
        .iter()
        .flat_map(|s| s.values.iter().flatten())
        .map(|(mean, std)| mean - std.unwrap_or(0.0))
        .fold(0.0_f64, f64::min);
    let y_min = if lowest < 0.0 {
        (lowest * 10.0).floor() / 10.0
    } else {
        0.0
    };
    let root = SVGBackend::with_string(svg, size).into_drawing_area();
    root.fill(&WHITE)?;
    let legend_height = 22 * series.len().div_ceil(3) as u32;
    let (plot, legend) = root.split_vertically(size.1 - legend_height - 8);
    let n = groups.len() as f64;
    // Group labels wrap onto a second line where a group is too narrow for
    // them (twelve Chinese category names side by side), never overlapping.
    let per_line = (((size.0 as f64 - 88.0) / n / 14.0).floor() as usize).max(2);
    let lines: Vec<Vec<String>> = groups.iter().map(|g| wrap(g, per_line)).collect();
    let two_lines = lines.iter().any(|l| l.len() > 1);
    let mut chart = ChartBuilder::on(&plot)
        .caption(title, (FONT, 17))
        .margin(12)
        .x_label_area_size(if two_lines { 50 } else { 34 })
        .y_label_area_size(52)
        .build_cartesian_2d(0.0..n, y_min..1.0)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .disable_x_axis()
        .x_labels(0)
        .y_desc(y_label)
        .y_label_formatter(&|v| format!("{v:.1}"))
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
    let centred = TextStyle::from((FONT, 13).into_font()).pos(Pos::new(HPos::Center, VPos::Top));
    let below = chart.plotting_area().get_pixel_range().1.end;
    for (g, label) in lines.iter().enumerate() {
        let (x, _) = chart.backend_coord(&(g as f64 + 0.5, y_min));
        for (i, line) in label.iter().enumerate() {
            root.draw(&Text::new(
                line.clone(),
                (x, below + 6 + 16 * i as i32),
                centred.clone(),
            ))?;
        }
    }

    for (k, s) in series.iter().enumerate() {
        let colour = PALETTE[k % PALETTE.len()];
        let x = 70 + 280 * (k % 3) as i32;
        let y = 4 + 22 * (k / 3) as i32;
        legend.draw(&Rectangle::new([(x, y), (x + 14, y + 14)], colour.filled()))?;
        legend.draw(&Text::new(s.name.clone(), (x + 20, y), (FONT, 13)))?;
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
/// least-squares line, `x_label` and `y_label` on the axes. An empty string
/// when there is no point or drawing fails.
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
    let legend_rows = series.len().div_ceil(3) as u32;
    let size = (900, 380 + 22 * legend_rows);
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
    let legend_height = 22 * series.len().div_ceil(3) as u32;
    let (plot, legend) = root.split_vertically(size.1 - legend_height - 8);
    let mut chart = ChartBuilder::on(&plot)
        .caption(title, (FONT, 17))
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(52)
        .build_cartesian_2d(x_min..x_max, 0.0..1.0)?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .x_label_formatter(&|v| format!("{v:.1}"))
        .y_label_formatter(&|v| format!("{v:.1}"))
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
    for (k, s) in series.iter().enumerate() {
        let colour = PALETTE[k % PALETTE.len()];
        let x = 70 + 280 * (k % 3) as i32;
        let y = 4 + 22 * (k / 3) as i32;
        legend.draw(&Circle::new((x + 7, y + 7), 6, colour.filled()))?;
        legend.draw(&Text::new(s.name.clone(), (x + 20, y), (FONT, 13)))?;
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

/// `label` in lines of at most `per_line` characters, two at most (the
/// second ends in `…` when the label is longer still).
fn wrap(label: &str, per_line: usize) -> Vec<String> {
    let chars: Vec<char> = label.chars().collect();
    if chars.len() <= per_line {
        return vec![label.to_owned()];
    }
    let first: String = chars[..per_line].iter().collect();
    let rest = &chars[per_line..];
    let second: String = if rest.len() <= per_line {
        rest.iter().collect()
    } else {
        rest[..per_line - 1]
            .iter()
            .chain(std::iter::once(&'…'))
            .collect()
    };
    vec![first, second]
}

/// A heat map of `counts` (rows: truth, columns: prediction) with `labels`
/// on both axes. An empty string when the matrix is not square or drawing fails.
pub fn heatmap(title: &str, labels: &[String], counts: &[Vec<usize>]) -> String {
    let n = labels.len();
    if n == 0 || counts.len() != n || counts.iter().any(|row| row.len() != n) {
        return String::new();
    }
    let mut svg = String::new();
    let size = (420, 380);
    if let Err(e) = draw_heatmap(&mut svg, size, title, labels, counts) {
        tracing::warn!("cannot draw the heat map {title:?}: {e}");
        return String::new();
    }
    responsive(svg, size, title)
}

fn draw_heatmap(
    svg: &mut String,
    size: (u32, u32),
    title: &str,
    labels: &[String],
    counts: &[Vec<usize>],
) -> Result<(), Box<dyn std::error::Error>> {
    let lang = crate::components::i18n::lang();
    let n = labels.len() as f64;
    let max = counts.iter().flatten().copied().max().unwrap_or(0).max(1) as f64;
    let root = SVGBackend::with_string(svg, size).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, (FONT, 16))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(110)
        .build_cartesian_2d(0.0..n, 0.0..n)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(0)
        .y_labels(0)
        .x_desc(lang.t("预测", "predicted"))
        .y_desc(lang.t("真实", "gold"))
        .draw()?;
    for (i, row) in counts.iter().enumerate() {
        for (j, &count) in row.iter().enumerate() {
            let shade = count as f64 / max;
            let level = (255.0 - shade * 200.0) as u8;
            let fill = RGBColor(level, (255.0 - shade * 150.0) as u8, 255);
            // Row 0 (the first label) at the top.
            let (x, y) = (j as f64, n - 1.0 - i as f64);
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x, y), (x + 1.0, y + 1.0)],
                fill.filled(),
            )))?;
            let ink = if shade > 0.55 { WHITE } else { BLACK };
            let style = TextStyle::from((FONT, 18).into_font())
                .color(&ink)
                .pos(Pos::new(HPos::Center, VPos::Center));
            let (left, top) = chart.backend_coord(&(x, y + 1.0));
            let (right, bottom) = chart.backend_coord(&(x + 1.0, y));
            root.draw(&Text::new(
                count.to_string(),
                ((left + right) / 2, (top + bottom) / 2),
                style,
            ))?;
        }
    }
    let small = |h: HPos, v: VPos| TextStyle::from((FONT, 12).into_font()).pos(Pos::new(h, v));
    for (k, label) in labels.iter().enumerate() {
        let (left, _) = chart.backend_coord(&(k as f64, 0.0));
        let (right, bottom) = chart.backend_coord(&(k as f64 + 1.0, 0.0));
        root.draw(&Text::new(
            label.clone(),
            ((left + right) / 2, bottom + 6),
            small(HPos::Center, VPos::Top),
        ))?;
        let (x, top) = chart.backend_coord(&(0.0, n - k as f64));
        let (_, low) = chart.backend_coord(&(0.0, n - 1.0 - k as f64));
        root.draw(&Text::new(
            label.clone(),
            (x - 6, (top + low) / 2),
            small(HPos::Right, VPos::Center),
        ))?;
    }
    root.present()?;
    Ok(())
}

/// The SVG scaled to its container's width: a `viewBox` instead of a fixed
/// size, and a role and its title as its name for screen readers.
fn responsive(svg: String, (w, h): (u32, u32), title: &str) -> String {
    let name = html_escape::encode_double_quoted_attribute(title);
    svg.replacen(
        &format!("width=\"{w}\" height=\"{h}\""),
        &format!("viewBox=\"0 0 {w} {h}\" class=\"chart\" role=\"img\" aria-label=\"{name}\""),
        1,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_labels_wrap_onto_two_lines_at_most() {
        assert_eq!(wrap("婚姻家事", 5), ["婚姻家事"]);
        assert_eq!(wrap("法律时效敏感度", 5), ["法律时效敏", "感度"]);
        assert_eq!(wrap("abcdefghijklmn", 5), ["abcde", "fghi…"]);
    }

    #[test]
    fn bars_draw_one_rectangle_per_value_and_escape_names() {
        let groups = vec!["Family".to_owned(), "Overall".to_owned()];
        let series = vec![
            Series {
                name: "<script>alert(1)</script>".into(),
                values: vec![Some((0.5, Some(0.1))), None],
            },
            Series {
                name: "模型乙".into(),
                values: vec![Some((0.7, None)), Some((-0.2, None))],
            },
        ];
        let svg = grouped_bars("LCA Macro-F1", &groups, &series, "Macro-F1");
        assert!(svg.starts_with("<svg"), "{svg}");
        assert!(svg.contains("viewBox=\"0 0 900"));
        assert!(!svg.contains("<script>"));
        assert!(svg.contains("&lt;script&gt;"));
        assert!(svg.contains("模型乙"));
        // Three bars and two legend swatches, plus the background.
        let filled_rects = svg.matches("<rect").count();
        assert!(filled_rects >= 5, "{filled_rects} rects");
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

    #[test]
    fn heatmaps_label_every_cell_and_refuse_ragged_matrices() {
        let labels: Vec<String> = ["supported", "partially", "dismissed"]
            .map(String::from)
            .to_vec();
        let counts = vec![vec![5, 1, 0], vec![2, 3, 1], vec![0, 4, 17]];
        let svg = heatmap("LJP", &labels, &counts);
        assert!(
            svg.contains(">17<") || svg.contains(">\n17") || svg.contains("17\n"),
            "{svg}"
        );
        assert!(svg.contains("partially"));
        assert_eq!(heatmap("x", &labels, &[vec![1, 2, 3]]), "");
        assert_eq!(grouped_bars("x", &[], &[], "y"), "");
    }
}
