// The page's elements by id, its one error line, and handlers that report to it.
export const $ = (id) => document.getElementById(id);

export function showError(message) {
  const line = String(message).split('\n')[0];
  $('error').textContent = line;
  $('error').hidden = false;
  console.warn(`isoterra: ${line}`);
}
export function clearError() { $('error').hidden = true; }

// An event handler that clears the error line, then shows the error its action throws.
export const guarded = (f) => async (...args) => {
  try {
    clearError();
    await f(...args);
  } catch (e) {
    showError(e.message);
  }
};

// Saves `bytes` as a file the browser downloads.
export function download(bytes, type, name) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([bytes], { type }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}
