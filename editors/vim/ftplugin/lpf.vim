" Cloudflare Logpush filters, as filterc reads them: comments, and gq formatting with filterc fmt
if exists('b:did_ftplugin')
  finish
endif
let b:did_ftplugin = 1

setlocal commentstring=#\ %s
setlocal comments=:#
setlocal formatoptions-=t formatoptions+=croql
" gq sends the lines through 'formatprg' by way of lpf#format(), which keeps them when the filter
" does not parse: 'formatprg' alone would replace them with the error message.
setlocal formatprg=filterc\ fmt
setlocal formatexpr=lpf#format()

let b:undo_ftplugin = 'setlocal commentstring< comments< formatoptions< formatprg< formatexpr<'
