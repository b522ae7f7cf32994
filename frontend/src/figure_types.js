// Types only: Plotly's figures as the site's scripts read them.
/**
 * Plotly's figures, the fields these scripts set or read (Plotly's JSON, its types not installed here: any other
 * field is kept as it is).
 * @typedef {{ size?: number, [field: string]: unknown }} Font
 * @typedef {{ text?: string, font?: Font, pad?: Record<string, number>, [field: string]: unknown }} Title
 * @typedef {{ tickfont?: Font, title?: Title, tickangle?: number, [field: string]: unknown }} Axis
 * @typedef {{ t?: number, b?: number, l?: number, r?: number }} Margin
 * @typedef {{ nticks?: number, thickness?: number, title?: Title, [field: string]: unknown }} ColourBar
 * @typedef {{ type?: string, showscale?: boolean, coloraxis?: string, colorbar?: ColourBar, textfont?: Font,
 *             showlegend?: boolean, name?: string, [field: string]: unknown }} Trace
 * @typedef {{ height?: number, font?: Font, meta?: { keeps_height?: boolean }, title?: Title, margin?: Margin,
 *             xaxis?: Axis, showlegend?: boolean, legend?: { font?: Font, [field: string]: unknown },
 *             [field: string]: unknown }} Layout
 * @typedef {{ data: Trace[], layout: Layout, [field: string]: unknown }} Figure
 */
export {};
