# Prints the candidates zsh's completion system offers for a command line
# (one per line, with the prefix they complete), as if Tab were pressed at
# its end in an interactive zsh (run on a pseudo-terminal with zpty, with
# compadd wrapped to print what it is given).
#
# usage: CAPTURE_FPATH=DIR zsh -f zsh-complete.zsh 'ls --color='
#   CAPTURE_FPATH: a directory put first in $fpath (the completion under
#   test), or empty for zsh's own functions only (vendor and site
#   directories are left out either way).
zmodload zsh/zpty || exit 3
zpty z zsh -f -i
init=$(mktemp)
cat > $init <<'INIT'
PROMPT=
# zsh's own functions only, or the one under test first: never what a
# package put in the vendor or site directories.
fpath=(${fpath:#*/(site-functions|vendor-completions|vendor-functions)})
[[ -n $CAPTURE_FPATH ]] && fpath=($CAPTURE_FPATH $fpath)
autoload -U compinit && compinit -u -D
bindkey '^M' undefined
bindkey '^J' undefined
bindkey '^I' complete-word
null-line () { echo -E - $'\0' }
compprefuncs=( null-line )
comppostfuncs=( null-line exit )
zstyle ':completion:*' list-grouped false
zstyle ':completion:*' insert-tab false
zstyle ':completion:*' list-prompt ''
zstyle ':completion:*' select-prompt ''
compadd () {
    if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
        builtin compadd "$@"
        return $?
    fi
    typeset -a __hits
    builtin compadd -A __hits "$@"
    [[ -n $__hits ]] || return
    local -A opts
    zparseopts -E -A opts P: p: S: s: 
    local h
    for h in $__hits; do echo -E - "CAND:$IPREFIX${opts[-P]}${opts[-p]}$h"; done
}
echo ok
INIT
zpty -w z "source $init"
repeat 10; do
    zpty -r z line
    [[ $line == ok* ]] && break
done
zpty -w z "$1"$'\t'
integer tog=0
while zpty -r z line; do
    if [[ $line == *$'\0'* ]]; then
        (( tog++ )) && break || continue
    fi
    (( tog )) && [[ $line == CAND:?* ]] && print -r -- "${${line#CAND:}%$'\r'}"
done
rm -f $init
