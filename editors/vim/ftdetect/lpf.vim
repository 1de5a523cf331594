" Cloudflare Logpush filters, as filterc reads them
autocmd BufNewFile,BufRead *.lpf setfiletype lpf
