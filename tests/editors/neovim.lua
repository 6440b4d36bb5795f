-- Neovim as idemlint's editor, headless: tests/neovim.rs runs
--   nvim --headless --clean -u NONE -c "luafile tests/editors/neovim.lua"
-- with IDEMLINT_BIN (the server's binary), IDEMLINT_SPEC (a copy of examples/payments-api.yaml)
-- and IDEMLINT_OUT (where this script writes what it saw) set.
--
-- It uses only what Neovim 0.7 (Debian bookworm's) has: vim.lsp.start_client and
-- buf_attach_client rather than vim.lsp.start or vim.lsp.config, so one script serves every
-- Neovim the test may meet. It asserts the diagnostics Neovim received (count, rule codes, line
-- numbers), applies the key fix through Neovim's own workspace-edit code, sees the finding go,
-- and reads a hover. Every exit is explicit: `qall!` on success, `cquit 1` on any failure, so a
-- headless Neovim never waits for input.

local bin = assert(os.getenv("IDEMLINT_BIN"), "IDEMLINT_BIN")
local spec = assert(os.getenv("IDEMLINT_SPEC"), "IDEMLINT_SPEC")
local out = assert(os.getenv("IDEMLINT_OUT"), "IDEMLINT_OUT")

local WAIT_MS = 60000
local lines = {}
local received = {}

local function say(fmt, ...)
  table.insert(lines, string.format(fmt, ...))
end

local function finish(ok)
  local f = assert(io.open(out, "w"))
  f:write(vim.fn.json_encode({ ok = ok, log = lines, received = received }))
  f:close()
  if ok then
    vim.cmd("qall!")
  else
    vim.cmd("cquit 1")
  end
end

local function expect(cond, fmt, ...)
  if not cond then
    error(string.format(fmt, ...), 0)
  end
end

-- The diagnostics of `buf`, as `{ code, line (1-based, as `check` prints it), col }`, sorted.
local function shown(buf)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(list, { code = d.code, line = d.lnum + 1, col = d.col, diagnostic = d })
  end
  table.sort(list, function(a, b)
    if a.line ~= b.line then
      return a.line < b.line
    end
    return a.code < b.code
  end)
  return list
end

local function codes(list)
  local names = {}
  for _, d in ipairs(list) do
    table.insert(names, string.format("%s@%d", d.code, d.line))
  end
  return table.concat(names, ", ")
end

-- What `idemlint check examples/payments-api.yaml` reports: rule and line.
local EXPECTED = {
  { "missing-idempotency-key", 79 },
  { "unprotected-patch", 110 },
  { "incremental-update", 137 },
  { "missing-conflict-response", 174 },
  { "conflict-without-retry-after", 201 },
}

local function main()
  vim.cmd("edit " .. vim.fn.fnameescape(spec))
  local buf = vim.api.nvim_get_current_buf()
  local client_id = vim.lsp.start_client({
    name = "idemlint",
    cmd = { bin, "lsp" },
    root_dir = vim.fn.fnamemodify(spec, ":p:h"),
  })
  expect(client_id ~= nil, "the server did not start")
  expect(vim.lsp.buf_attach_client(buf, client_id), "the buffer could not be attached")

  -- 1. The findings `check` reports, where it reports them.
  vim.wait(WAIT_MS, function()
    return #vim.diagnostic.get(buf) >= #EXPECTED
  end, 20)
  local got = shown(buf)
  for _, d in ipairs(got) do
    local lsp = d.diagnostic.user_data and d.diagnostic.user_data.lsp or {}
    table.insert(received, {
      code = d.code,
      line = d.line,
      col = d.col,
      severity = d.diagnostic.severity,
      source = d.diagnostic.source,
      href = lsp.codeDescription and lsp.codeDescription.href or vim.NIL,
    })
  end
  say("received: %s", codes(got))
  expect(#got == #EXPECTED, "expected %d diagnostics, received %d: %s", #EXPECTED, #got, codes(got))
  for i, want in ipairs(EXPECTED) do
    expect(
      got[i].code == want[1] and got[i].line == want[2],
      "diagnostic %d: expected %s@%d, received %s@%d",
      i,
      want[1],
      want[2],
      got[i].code,
      got[i].line
    )
  end

  -- 2. The quick fix that adds the key, applied by Neovim itself: the finding goes.
  local missing = got[1].diagnostic
  local uri = vim.uri_from_bufnr(buf)
  local range = {
    start = { line = missing.lnum, character = missing.col },
    ["end"] = { line = missing.end_lnum, character = missing.end_col },
  }
  local replies = vim.lsp.buf_request_sync(buf, "textDocument/codeAction", {
    textDocument = { uri = uri },
    range = range,
    -- What `vim.lsp.buf.code_action()` sends: the line's diagnostics in LSP form.
    context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buf, missing.lnum, nil, client_id) },
  }, WAIT_MS)
  expect(
    replies and replies[client_id] and replies[client_id].result,
    "no code actions: %s",
    vim.inspect(replies)
  )
  local fix
  local titles = {}
  for _, action in ipairs(replies[client_id].result) do
    table.insert(titles, action.title)
    if action.kind == "quickfix" and action.title:find("(unsafe)", 1, true) then
      fix = action
    end
  end
  say("code actions: %s", table.concat(titles, " | "))
  expect(fix ~= nil, "no unsafe quick fix among: %s", table.concat(titles, " | "))
  if not fix.edit then
    local client = vim.lsp.get_client_by_id(client_id)
    local resolved = client.request_sync("codeAction/resolve", fix, WAIT_MS, buf)
    expect(resolved and resolved.result and resolved.result.edit, "the quick fix did not resolve")
    fix = resolved.result
  end
  vim.lsp.util.apply_workspace_edit(fix.edit, "utf-16")
  local gone = vim.wait(WAIT_MS, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.code == "missing-idempotency-key" then
        return false
      end
    end
    return #vim.diagnostic.get(buf) > 0
  end, 20)
  local after = shown(buf)
  say("after the fix: %s", codes(after))
  say("edit: %s", vim.inspect(fix.edit))
  say("buffer:\n%s", table.concat(vim.api.nvim_buf_get_lines(buf, 90, 125, false), "\n"))
  expect(gone, "missing-idempotency-key is still shown after its fix: %s", codes(after))
  local left = {}
  for _, d in ipairs(after) do
    table.insert(left, d.code)
  end
  table.sort(left)
  local want_left = {
    "conflict-without-retry-after",
    "incremental-update",
    "missing-conflict-response",
    "unprotected-patch",
  }
  expect(
    table.concat(left, ",") == table.concat(want_left, ","),
    "after the fix expected %s, received %s",
    table.concat(want_left, ","),
    table.concat(left, ",")
  )

  -- 3. Hover on a finding: its rule's documentation.
  local patch
  for _, d in ipairs(after) do
    if d.code == "unprotected-patch" then
      patch = d.diagnostic
    end
  end
  local hover = vim.lsp.buf_request_sync(buf, "textDocument/hover", {
    textDocument = { uri = uri },
    position = { line = patch.lnum, character = patch.col },
  }, WAIT_MS)
  local result = hover and hover[client_id] and hover[client_id].result
  expect(result and result.contents, "no hover on unprotected-patch")
  local text = result.contents.value or ""
  say("hover: %s", (text:gsub("\n.*", "")))
  expect(text:find("unprotected-patch", 1, true), "the hover does not name the rule: %s", text)
end

local ok, err = pcall(main)
if not ok then
  say("FAIL: %s", tostring(err))
end
finish(ok)
