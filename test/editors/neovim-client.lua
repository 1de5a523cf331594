-- Drives Neovim as an LSP client of filterc, after ~/.config/nvim/init.lua (docs/editors.md's
-- Neovim 0.7 recipe) has run: opens $LPF_FILE, waits for the server's diagnostics, asks for hover,
-- completion, a quick fix (applied) and formatting (applied), reads the syntax group of a few
-- places, runs the Neovim 0.11 recipe against stand-ins of the API it calls, and writes it all as
-- JSON to $LPF_OUT. Every wait is bounded; the test bounds the whole process too.
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
  return fail("no diagnostics within " .. WAIT_MS .. " ms")
end
step("diagnostics")
out.diagnostics = diagnostics()
local client = vim.lsp.get_active_clients()[1]
out.client = client.name

local function request(method, params)
  local answers, err = vim.lsp.buf_request_sync(buffer, method, params, WAIT_MS)
  if not answers then return fail(method .. ": " .. tostring(err)) end
  local answer = answers[client.id]
  if answer.err then return fail(method .. ": " .. vim.inspect(answer.err)) end
  return answer.result
end
local function at(line, character)
  return { textDocument = { uri = vim.uri_from_bufnr(buffer) }, position = { line = line, character = character } }
end

local hover = request("textDocument/hover", at(0, 2))
out.hover = hover and hover.contents.value
step("hover")

local completion = request("textDocument/completion", at(0, 30))
local items = completion and (completion.items or completion) or {}
out.completion = vim.tbl_map(function(item) return item.label end, { unpack(items, 1, 3) })
step("completion")

local first = vim.diagnostic.get(buffer)[1]
local actions = request("textDocument/codeAction", {
  textDocument = { uri = vim.uri_from_bufnr(buffer) },
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
  return fail("the quick fix left diagnostics: " .. vim.inspect(diagnostics()))
end
step("fixed")

local edits = request("textDocument/formatting", {
  textDocument = { uri = vim.uri_from_bufnr(buffer) },
  options = { tabSize = 2, insertSpaces = true },
})
if edits then vim.lsp.util.apply_text_edits(edits, buffer, client.offset_encoding) end
out.formatted = vim.api.nvim_buf_get_lines(buffer, 0, -1, false)
step("formatting")

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
      config = function(name, config) table.insert(out.current.calls, { "config", name, config }) end,
      enable = function(name) table.insert(out.current.calls, { "enable", name }) end,
    },
  }
  setfenv(chunk, setmetatable({ vim = stand_in }, { __index = _G }))
  local ok, run_error = pcall(chunk)
  out.current.run = ok and "ok" or tostring(run_error)
end
step("done")
finish()
