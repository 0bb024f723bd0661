/** What the figure rule needs to know about a ranked chunk. */
export interface FigureShareItem {
  content_type: string;
}

/** Of a top_k, figure chunks may fill at most this share (rounded down, at least one). */
export const FIGURE_SHARE = 1 / 3;

// Words that ask for a picture: the rule steps aside for them.
const ASKS_FOR_PICTURES =
  /\b(photos?|photographs?|photographed|pictures?|pictured|images?|figures?|shown|show|showing|looks?|see)\b/i;

/** Whether a query asks for photos or other pictures, which the figure rule must not hold back. */
export function asksForPictures(query: string): boolean {
  return ASKS_FOR_PICTURES.test(query);
}

/**
 * Figure chunks hold a photo's caption ("Figure, page 49: West Barn Interior"): a few words that
 * match a question's noun and state nothing of what it asks. On real appraisals a page of photo
 * captions filled the whole top 6 for "How big is the larger barn?", each caption in both legs'
 * first ranks, and the text that states the size came seventh; on inspection reports a caption
 * ("Figure, page 44: Disposal") ranked above the finding it illustrates. So, unless the query asks
 * for pictures, figure chunks fill at most `FIGURE_SHARE` of the top `topK`, after its text and
 * table chunks: a figure past that share moves behind the first `topK` (in its order), and the
 * next text and table chunks take its place. Nothing is dropped and nothing is re-scored: the list
 * keeps every candidate. Pure.
 */
export function limitFigures<T extends FigureShareItem>(
  ranked: readonly T[],
  topK: number,
  query: string,
): T[] {
  if (asksForPictures(query)) return [...ranked];
  const allowed = Math.max(1, Math.floor(topK * FIGURE_SHARE));
  const text: T[] = [];
  const figures: T[] = [];
  const held: T[] = [];
  const rest: T[] = [];
  for (const item of ranked) {
    if (text.length + figures.length >= topK) rest.push(item);
    else if (item.content_type !== 'figure') text.push(item);
    else if (figures.length < allowed) figures.push(item);
    else held.push(item);
  }
  return [...text, ...figures, ...held, ...rest];
}

/**
 * A selection's figure chunks after its text and table chunks, each part in its order, unless the
 * query asks for pictures: what {@link limitFigures} does to the top k, for a selection the
 * diversity rule has re-ordered by score. Pure.
 */
export function figuresAfterText<T extends FigureShareItem>(
  selected: readonly T[],
  query: string,
): T[] {
  if (asksForPictures(query)) return [...selected];
  return [
    ...selected.filter((c) => c.content_type !== 'figure'),
    ...selected.filter((c) => c.content_type === 'figure'),
  ];
}
