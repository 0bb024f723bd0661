import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

/**
 * `[C1]` citations become links to `#cite-C1`, which the `a` renderer resolves; so do the
 * local answerer's `[Inspection.pdf p. 12]`, for each chunk of the answer whose citation it is
 * (`citations`: the answer's chunks, `ref` and `citation`). Pure.
 */
export function linkCitations(
  text: string,
  citations: readonly { ref: string; citation?: string }[] = [],
): string {
  const refOf = new Map<string, string>();
  for (const c of citations) if (c.citation && !refOf.has(c.citation)) refOf.set(c.citation, c.ref);
  return text.replace(/\[([^\]\n]{1,200})\](?!\()/g, (whole, inner: string) => {
    if (/^C\d{1,3}$/.test(inner)) return `[${inner}](#cite-${inner})`;
    const ref = refOf.get(inner);
    return ref ? `[${inner}](#cite-${ref})` : whole;
  });
}

interface Props {
  text: string;
  /** Called when a citation link is followed; the href's ref (`C1`). */
  onCite?: (ref: string) => void;
  citeLabel?: (ref: string) => string | undefined;
  /** The answer's chunks: their `[file p. N]` citations in the text become links too. */
  citations?: readonly { ref: string; citation?: string }[];
}

/**
 * Markdown with tables (GFM). Raw HTML in the text is not rendered (react-markdown's
 * default) and link targets pass its URL sanitiser, so a document cannot inject markup.
 */
export function Markdown({ text, onCite, citeLabel, citations }: Props) {
  const components: Components = {
    a({ href, children }) {
      if (href?.startsWith('#cite-')) {
        const ref = href.slice('#cite-'.length);
        const label = citeLabel?.(ref);
        return (
          <a
            href={href}
            className="cite"
            title={label ? `Source: ${label}` : undefined}
            aria-label={label ? `Source ${ref}: ${label}` : `Source ${ref}`}
            onClick={(event) => {
              event.preventDefault();
              onCite?.(ref);
            }}
          >
            {children}
          </a>
        );
      }
      return (
        <a href={href} target="_blank" rel="noopener noreferrer">
          {children}
        </a>
      );
    },
    table({ children }) {
      return (
        <div className="table-wrap">
          <table>{children}</table>
        </div>
      );
    },
  };
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={components}>
        {linkCitations(text, citations)}
      </ReactMarkdown>
    </div>
  );
}
