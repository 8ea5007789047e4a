/**
 * Hands a file the page made to the browser's save, as a download. The answers it saves came
 * with the key in a header, which a plain link cannot send; the Blob is let go once the click
 * is handled.
 */
export function saveFile(content: Blob | string, fileName: string): void {
  const blob = typeof content === 'string' ? new Blob([content], { type: 'text/csv;charset=utf-8' }) : content;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
