# bash completion for statls's ls, generated from its option table
# (src/cli/table.rs) by tests/generated_docs.rs: do not edit.
# Needs bash-completion (_init_completion), which itself completes ls
# with _longopt: source this file after it to complete values too.
_statls_ls()
{
    local cur prev words cword split
    _init_completion -s || return

    case $prev in
        --width|-w)
            COMPREPLY=()
            return
            ;;
        --classify)
            if [[ $split == true ]]; then
                COMPREPLY=($(compgen -W 'always yes force never no none auto tty if-tty' -- "$cur"))
                return
            fi
            ;;
        --hide)
            COMPREPLY=()
            return
            ;;
        --ignore|-I)
            COMPREPLY=()
            return
            ;;
        --indicator-style)
            COMPREPLY=($(compgen -W 'none slash file-type classify' -- "$cur"))
            return
            ;;
        --quoting-style)
            COMPREPLY=($(compgen -W 'literal shell shell-always shell-escape shell-escape-always c c-maybe escape locale clocale' -- "$cur"))
            return
            ;;
        --format)
            COMPREPLY=($(compgen -W 'verbose long commas horizontal across vertical single-column' -- "$cur"))
            return
            ;;
        --sort)
            COMPREPLY=($(compgen -W 'none size time version extension name width' -- "$cur"))
            return
            ;;
        --tabsize|-T)
            COMPREPLY=()
            return
            ;;
        --time)
            COMPREPLY=($(compgen -W 'atime access use ctime status mtime modification birth creation' -- "$cur"))
            return
            ;;
        --time-style)
            COMPREPLY=($(compgen -W 'full-iso long-iso iso locale' -- "$cur"))
            return
            ;;
        --color)
            if [[ $split == true ]]; then
                COMPREPLY=($(compgen -W 'always yes force never no none auto tty if-tty' -- "$cur"))
                return
            fi
            ;;
        --hyperlink)
            if [[ $split == true ]]; then
                COMPREPLY=($(compgen -W 'always yes force never no none auto tty if-tty' -- "$cur"))
                return
            fi
            ;;
        --block-size)
            COMPREPLY=()
            return
            ;;
        --cached)
            COMPREPLY=($(compgen -W 'default never always' -- "$cur"))
            return
            ;;
        --timeout)
            COMPREPLY=($(compgen -W '5s 30s 1m' -- "$cur"))
            return
            ;;
    esac
    [[ $split == true ]] && return

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W '-a --all -b --escape -d --directory -D --dired --full-time --group-directories-first -h --human-readable -i --inode -k --kibibytes -n --numeric-uid-gid -G --no-group -q --hide-control-chars -r --reverse -s --size -w --width= -A --almost-all -B --ignore-backups -F --classify= --file-type --si -H --dereference-command-line --dereference-command-line-symlink-to-dir --hide= -I --ignore= --indicator-style= -L --dereference -N --literal -Q --quote-name --quoting-style= -R --recursive --format= --show-control-chars --sort= -T --tabsize= --time= --time-style= --zero --color= --hyperlink= --block-size= -Z --context --author --help --version --json --cached= --timeout= -c -f -g -l -m -o -p -t -u -v -x -C -S -U -X -1' -- "$cur"))
        [[ ${COMPREPLY-} == *= ]] && compopt -o nospace
        return
    fi
    _filedir
} &&
    complete -F _statls_ls ls
