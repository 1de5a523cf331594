" gq on a filter file: the lines go through 'formatprg' (filterc fmt) and are replaced only when
" it succeeds; otherwise they stay as they are and its first line of error is shown.
function! lpf#format() abort
  if mode() =~# '[iR]'
    " Breaking a line typed past 'textwidth': Vim's own formatting.
    return 1
  endif
  let l:first = v:lnum
  let l:last = v:lnum + v:count - 1
  let l:lines = getline(l:first, l:last)
  let l:output = systemlist(&l:formatprg, l:lines)
  if v:shell_error
    echohl ErrorMsg
    echomsg &l:formatprg . ': ' . get(l:output, 0, 'failed')
    echohl None
    return 0
  endif
  if l:output !=# l:lines
    " The new lines go in before the old ones go, so that the buffer is never left empty.
    call append(l:last, l:output)
    silent execute l:first . ',' . l:last . 'delete _'
  endif
  return 0
endfunction
