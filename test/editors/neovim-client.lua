-- Drives Neovim as an LSP client of filterc, after ~/.config/nvim/init.lua (docs/editors.md's
-- Neovim 0.7 recipe) has run, as a user would: opens $LPF_FILE and waits for the server's
-- diagnostics and the code lenses the recipe asks for, hovers with K, applies the quick fix, sees
-- the evaluation lens follow the text and runs it (the recipe's command fills the quickfix list),
-- formats, lists the outline, asks for folding, selection ranges, inlay hints and links, reads the
-- syntax group of a few places, runs the Neovim 0.11 recipe against stand-ins of the API it calls,
-- and last completes with CTRL-X CTRL-O in Insert mode. It writes it all as JSON to $LPF_OUT.
-- Every wait is bounded; the test bounds the whole process too.
local WAIT_MS = 10000
local out = { steps = {} }

local function step(name) table.insert(out.steps, name) end
local function finish()
  local file = io.open(vim.env.LPF_OUT, "w")
  file:write(vim.fn.json_encode(out))
  file:close()
  vim.cmd("qall!")
end
local function fail(message)
  out.failure = message
  finish()
  error(message)
end

vim.cmd("edit " .. vim.fn.fnameescape(vim.env.LPF_FILE))
local buffer = vim.api.nvim_get_current_buf()
out.filetype = vim.bo.filetype

local function diagnostics()
  return vim.tbl_map(function(d)
    return { code = d.code, message = d.message, line = d.lnum, column = d.col, end_column = d.end_col }
  end, vim.diagnostic.get(buffer))
end

if not vim.wait(WAIT_MS, function() return #vim.diagnostic.get(buffer) > 0 end, 20) then
  fail("no diagnostics within " .. WAIT_MS .. " ms")
end
step("diagnostics")
out.diagnostics = diagnostics()
local client = vim.lsp.get_active_clients()[1]
out.client = client.name

local function request(method, params)
  local answers, err = vim.lsp.buf_request_sync(buffer, method, params, WAIT_MS)
  if not answers then fail(method .. ": " .. tostring(err)) end
  local answer = answers[client.id]
  if answer.err then fail(method .. ": " .. vim.inspect(answer.err)) end
  return answer.result
end
local document = { uri = vim.uri_from_bufnr(buffer) }

-- The code lenses as Neovim shows them: virtual text in its code lens namespace.
local function shown_lenses()
  local shown = {}
  for name, namespace in pairs(vim.api.nvim_get_namespaces()) do
    if name:match("codelens") then
      for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(buffer, namespace, 0, -1, { details = true })) do
        for _, chunk in ipairs(mark[4].virt_text or {}) do
          if chunk[1]:match("%S") then table.insert(shown, { line = mark[2], text = chunk[1] }) end
        end
      end
    end
  end
  return shown
end
local function lens_shown(pattern)
  return vim.wait(WAIT_MS, function()
    for _, lens in ipairs(shown_lenses()) do
      if lens.text:match(pattern) then return true end
    end
  end, 20)
end
if not lens_shown("samples") then fail("no code lens shown within " .. WAIT_MS .. " ms") end
out.lenses_before = shown_lenses()
step("code lens")

-- K, as the recipe maps it: the hover in a floating window.
vim.api.nvim_win_set_cursor(0, { 1, 2 })
vim.api.nvim_feedkeys("K", "x", false)
local function floating()
  for _, window in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(window).relative ~= "" then return window end
  end
end
if not vim.wait(WAIT_MS, function() return floating() ~= nil end, 20) then fail("K showed no hover") end
out.hover = vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(floating()), 0, -1, false)
vim.api.nvim_win_close(floating(), true)
out.omnifunc = vim.bo[buffer].omnifunc
step("hover")

local first = vim.diagnostic.get(buffer)[1]
local actions = request("textDocument/codeAction", {
  textDocument = document,
  range = {
    start = { line = first.lnum, character = first.col },
    ["end"] = { line = first.end_lnum, character = first.end_col },
  },
  context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buffer, first.lnum) },
}) or {}
out.actions = vim.tbl_map(function(action) return action.title end, actions)
if actions[1] then vim.lsp.util.apply_workspace_edit(actions[1].edit, client.offset_encoding) end
step("code action")

if not vim.wait(WAIT_MS, function() return #vim.diagnostic.get(buffer) == 0 end, 20) then
  fail("the quick fix left diagnostics: " .. vim.inspect(diagnostics()))
end
step("fixed")

-- Leaving Insert mode, as after typing: the recipe asks for the lenses again.
vim.cmd("doautocmd InsertLeave")
if not lens_shown("keeps") then fail("the evaluation lens did not follow the fix: " .. vim.inspect(shown_lenses())) end
out.lenses_after = shown_lenses()
vim.api.nvim_win_set_cursor(0, { out.lenses_after[1].line + 1, 0 })
vim.lsp.codelens.run()
if not vim.wait(WAIT_MS, function() return vim.fn.getqflist({ title = 0 }).title:match("keeps") ~= nil end, 20) then
  fail("running the evaluation lens filled no quickfix list")
end
local quickfix = vim.fn.getqflist({ title = 0, items = 0 })
out.kept = {
  title = quickfix.title,
  items = vim.tbl_map(function(item)
    return { file = vim.fn.fnamemodify(vim.fn.bufname(item.bufnr), ":t"), line = item.lnum, text = item.text }
  end, quickfix.items),
}
vim.cmd("cclose")
vim.api.nvim_set_current_buf(buffer)
step("evaluation lens")

-- Before formatting, while the text still spans lines: folding, selection, inlay hints, links.
out.folding = request("textDocument/foldingRange", { textDocument = document })
local selection = request("textDocument/selectionRange", {
  textDocument = document,
  positions = { { line = 1, character = 6 } },
})[1]
out.selection = {}
while selection do
  table.insert(out.selection, selection.range)
  selection = selection.parent
end
out.inlay = request("textDocument/inlayHint", {
  textDocument = document,
  range = { start = { line = 0, character = 0 }, ["end"] = { line = 10, character = 0 } },
})
out.links = vim.tbl_map(function(link) return link.target end, request("textDocument/documentLink", { textDocument = document }))
step("features")

local edits = request("textDocument/formatting", { textDocument = document, options = { tabSize = 2, insertSpaces = true } })
if edits then vim.lsp.util.apply_text_edits(edits, buffer, client.offset_encoding) end
out.formatted = vim.api.nvim_buf_get_lines(buffer, 0, -1, false)
step("formatting")

-- The outline, as :lua vim.lsp.buf.document_symbol() lists it: the quickfix list, in Neovim 0.7.
vim.lsp.buf.document_symbol()
if not vim.wait(WAIT_MS, function() return not vim.fn.getqflist({ title = 0 }).title:match("keeps") end, 20) then
  fail("document_symbol() listed nothing")
end
out.outline = vim.tbl_map(function(item) return { line = item.lnum, text = item.text } end, vim.fn.getqflist())
vim.cmd("cclose")
vim.api.nvim_set_current_buf(buffer)
step("outline")


-- Colours without semantic tokens: the syntax file's groups.
out.syntax = {}
for _, place in ipairs({ { 1, 1 }, { 1, 12 }, { 1, 15 }, { 2, 3 } }) do
  table.insert(out.syntax, vim.fn.synIDattr(vim.fn.synID(place[1], place[2], 1), "name"))
end

-- Neovim 0.11's recipe, against stand-ins of vim.lsp.config and vim.lsp.enable.
local file = io.open(vim.env.LPF_RECIPE_CURRENT)
local source = file:read("*a")
file:close()
local chunk, syntax_error = loadstring(source, "recipe=neovim")
out.current = { syntax = syntax_error or "ok", calls = {} }
if chunk then
  local stand_in = {
    lsp = {
      config = function(name, config)
        local shown = {}
        for key, value in pairs(config) do shown[key] = type(value) == "function" and "<function>" or value end
        table.insert(out.current.calls, { "config", name, shown })
      end,
      enable = function(name) table.insert(out.current.calls, { "enable", name }) end,
    },
  }
  setfenv(chunk, setmetatable({ vim = stand_in }, { __index = _G }))
  local ok, run_error = pcall(chunk)
  out.current.run = ok and "ok" or tostring(run_error)
end

-- Last, CTRL-X CTRL-O at the end of a new comparison: the keys are typed once this script returns.
vim.api.nvim_win_set_cursor(0, { #vim.api.nvim_buf_get_lines(buffer, 0, -1, false), 0 })
vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes("o  and HTTPHo<C-x><C-o>", true, false, true), "t", false)
local started = vim.loop.now()
local timer = vim.loop.new_timer()
timer:start(50, 50, vim.schedule_wrap(function()
  local items = vim.fn.complete_info({ "items" }).items
  if #items == 0 and vim.loop.now() - started < WAIT_MS then return end
  timer:stop()
  out.completion = { mode = vim.api.nvim_get_mode().mode, items = vim.tbl_map(function(item) return item.word end, items) }
  step("completion")
  step("done")
  finish()
end))
