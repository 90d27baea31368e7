/*
 * ptx.y - the shape of a PTX module (Bison). Every action is one ir_* call (ir*.c), which
 * builds the IR and reports semantic errors; the grammar only decides what is what.
 * Expressions and operands share one grammar: ir_expr.c folds constants and sorts out what an
 * operand is (register, address, vector, dual destination, call list).
 */
%require "3.5"
%define api.pure full
%define api.prefix {ptx_}
%locations
%define api.location.type {struct src_span}
%define parse.error detailed
/* Exact error detection, so "expecting ..." lists name exactly the tokens that could come
 * next: canonical LR has no merged lookaheads, and reductions by default happen only in
 * states with nothing else to do, so a bad token is caught before any reduction. This is
 * what LAC (parse.lac full) gives, without its exploratory parse on every token (~10% of
 * `ptxi check`); the tables grow from 259 to 707 states. */
%define lr.type canonical-lr
%define lr.default-reduction consistent
%expect 0
%param {struct parser *p}

%code requires {
#include "front/parse.h"
}

%code {
int ptx_lex(PTX_STYPE *lval, struct src_span *lloc, struct parser *p);

static void ptx_error(struct src_span *loc, struct parser *p, const char *msg)
{
	ir_syntax_error(p, loc, msg, p->last_tok == TOK_BAD ? 1 : p->last_tok == TOK_HASH ? 2 : 0);
}

/* A rule's span runs from its first non-empty part to the end of its last part. */
#define YYLLOC_DEFAULT(cur, rhs, n)                                                       \
	do {                                                                              \
		if (n) {                                                                  \
			int i_ = 1;                                                       \
			while (i_ < (n) && YYRHSLOC(rhs, i_).len == 0)                    \
				i_++;                                                     \
			uint32_t b_ = YYRHSLOC(rhs, i_).off;                              \
			uint32_t e_ = YYRHSLOC(rhs, n).off + YYRHSLOC(rhs, n).len;        \
			span_set(&(cur), b_, e_ > b_ ? e_ - b_ : 0);                      \
		} else {                                                                  \
			uint32_t e_ = YYRHSLOC(rhs, 0).off + YYRHSLOC(rhs, 0).len;        \
			span_set(&(cur), e_, 0);                                          \
		}                                                                         \
	} while (0)
}

/* Every member is 8 bytes: Bison copies the whole union after each action, and a load
 * wider than the store that wrote it cannot be forwarded (a stall on every reduction). */
%union {
	uint64_t u;
	uint64_t e;
	struct plist list;
	struct dims *dims;
	struct sym_list *syms;
	struct declspec *spec;
	struct ir_func *func;
}

%token TOK_EOF 0 "end of file"
%token TOK_IDENT "identifier"
%token TOK_DOTWORD "modifier"
%token TOK_INT "integer"
%token TOK_FLOAT "floating-point constant"
%token TOK_STRING "string"
%token TOK_SINK "'_'"
%token TOK_BAD "invalid character"
%token TOK_HASH "preprocessor directive"
%token TOK_SECTION "'.section'"
%token TOK_VERSION "'.version'"
%token TOK_TARGET "'.target'"
%token TOK_ADDRESS_SIZE "'.address_size'"
%token TOK_ENTRY "'.entry'"
%token TOK_FUNC "'.func'"
%token TOK_VISIBLE "'.visible'"
%token TOK_EXTERN "'.extern'"
%token TOK_WEAK "'.weak'"
%token TOK_COMMON "'.common'"
%token TOK_REG "'.reg'"
%token TOK_SHARED "'.shared'"
%token TOK_LOCAL "'.local'"
%token TOK_CONST "'.const'"
%token TOK_GLOBAL "'.global'"
%token TOK_PARAM "'.param'"
%token TOK_ALIGN "'.align'"
%token TOK_PTR "'.ptr'"
%token TOK_ATTRIBUTE "'.attribute'"
%token TOK_FILE "'.file'"
%token TOK_LOC "'.loc'"
%token TOK_PRAGMA "'.pragma'"
%token TOK_CALLPROTOTYPE "'.callprototype'"
%token TOK_CALLTARGETS "'.calltargets'"
%token TOK_BRANCHTARGETS "'.branchtargets'"
%token TOK_PERF "performance directive"
%token TOK_SHL "'<<'"
%token TOK_SHR "'>>'"
%token TOK_LE "'<='"
%token TOK_GE "'>='"
%token TOK_EQ "'=='"
%token TOK_NE "'!='"
%token TOK_ANDAND "'&&'"
%token TOK_OROR "'||'"

%right '?' ':'
%left TOK_OROR
%left TOK_ANDAND
%left '|'
%left '^'
%left '&'
%left TOK_EQ TOK_NE
%left '<' '>' TOK_LE TOK_GE
%left TOK_SHL TOK_SHR
%left '+' '-'
%left '*' '/' '%'
%precedence UNARY

%type <u> linkage mods attrs ints
%type <e> expr guard init_opt tname
%type <list> elist opnds_opt opnds tlist
%type <dims> dims
%type <syms> params params_opt rets_opt
%type <spec> declspec pspec
%type <func> func_head

%%

module
	: %empty
	| module item
	;

item
	: version TOK_FLOAT                     { ir_version(p, @2); }
	| version TOK_INT                       { ir_version(p, @2); }
	| target targets
	| address_size TOK_INT                  { ir_address_size(p, @2); }
	| func
	| stmt
	| '}'                                   { ir_block_close(p, @1); }
	;

version
	: TOK_VERSION                           { ir_header(p, @1, HDR_VERSION); }
	;

target
	: TOK_TARGET                            { ir_header(p, @1, HDR_TARGET); }
	;

address_size
	: TOK_ADDRESS_SIZE                      { ir_header(p, @1, HDR_ADDRESS_SIZE); }
	;

targets
	: TOK_IDENT                             { ir_target(p, @1); }
	| targets ',' TOK_IDENT                 { ir_target(p, @3); }
	;

/* ---- Functions ------------------------------------------------------------------------- */

func
	: func_head perfs fbody
	| func_head perfs ';'                   { ir_func_decl_end(p, @3); }
	;

func_head
	: linkage TOK_ENTRY TOK_IDENT params_opt
		{ $$ = ir_func_begin(p, $1, true, NULL, @3, $4, @$); }
	| linkage TOK_FUNC rets_opt TOK_IDENT params_opt
		{ $$ = ir_func_begin(p, $1, false, $3, @4, $5, @$); }
	;

rets_opt
	: %empty                                { $$ = ir_params_none(p); }
	| '(' ')'                               { $$ = ir_params_none(p); }
	| '(' params ')'                        { $$ = $2; }
	;

params_opt
	: %empty                                { $$ = ir_params_none(p); }
	| '(' ')'                               { $$ = ir_params_none(p); }
	| '(' params ')'                        { $$ = $2; }
	;

params
	: pspec TOK_IDENT dims                  { $$ = ir_params_add(p, ir_params_none(p), $1, @2, $3); }
	| pspec TOK_SINK dims                   { $$ = ir_params_add(p, ir_params_none(p), $1, @2, $3); }
	| params ',' pspec TOK_IDENT dims       { $$ = ir_params_add(p, $1, $3, @4, $5); }
	| params ',' pspec TOK_SINK dims        { $$ = ir_params_add(p, $1, $3, @4, $5); }
	;

pspec
	: space attrs                           { $$ = ir_declspec(p, 0, @1, $2, @$); }
	;

perfs
	: %empty
	| perfs perf
	;

perf
	: TOK_PERF                              { ir_perf(p, @1, 0); }
	| TOK_PERF ints                         { ir_perf(p, @1, $2); }
	| TOK_PRAGMA TOK_STRING ';'             { ir_pragma(p, @2); }
	;

ints
	: TOK_INT                               { $$ = ir_ints_first(p, @1); }
	| ints ',' TOK_INT                      { $$ = ir_ints_push(p, $1, @3); }
	;

fbody
	: fopen stmts '}'                       { ir_func_end(p, @3); }
	| fopen stmts error '}'                 { ir_func_end(p, @4); }
	;

fopen
	: '{'                                   { ir_func_body_begin(p, @1); }
	;

/* ---- Statements ------------------------------------------------------------------------ */

stmts
	: %empty
	| stmts stmt
	;

stmt
	: decl
	| TOK_IDENT mods opnds_opt ';'          { ir_insn_new(p, ir_guard_none(p), @1, $2, $3, @$); }
	| guard TOK_IDENT mods opnds_opt ';'    { ir_insn_new(p, $1, @2, $3, $4, @$); }
	| TOK_IDENT ':'                         { ir_label(p, @1); }
	| block
	| TOK_IDENT ':' TOK_CALLPROTOTYPE rets_opt TOK_SINK params_opt ';'
		{ ir_proto(p, @1, $4, $6, @$); }
	| TOK_IDENT ':' TOK_BRANCHTARGETS tlist ';'
		{ ir_targets(p, @1, $4, @$); }
	| TOK_IDENT ':' TOK_CALLTARGETS tlist ';'
		{ ir_targets(p, @1, $4, @$); }
	| TOK_LOC TOK_INT TOK_INT TOK_INT loc_attrs
		{ ir_loc(p, @2, @3, @4); }
	| TOK_FILE TOK_INT TOK_STRING           { ir_file(p, @2, @3); }
	| TOK_FILE TOK_INT TOK_STRING ',' TOK_INT ',' TOK_INT
		{ ir_file(p, @2, @3); }
	| TOK_SECTION                           { ir_section(p, @1); }
	| TOK_PRAGMA TOK_STRING ';'             { ir_pragma(p, @2); }
	| error ';'
	;

/* `.loc 1 10 5, function_name $L__info_string0, inlined_at 1 20 3` (no ';'). */
loc_attrs
	: %empty
	| loc_attrs ',' TOK_IDENT TOK_IDENT     { ir_loc_func(p, @3, @4); }
	| loc_attrs ',' TOK_IDENT TOK_INT TOK_INT TOK_INT
		{ ir_loc_inlined(p, @3, @4, @5, @6); }
	;

block
	: bopen stmts '}'                       { ir_block_close(p, @3); }
	| bopen stmts error '}'                 { ir_block_close(p, @4); }
	;

bopen
	: '{'                                   { ir_block_open(p, @1); }
	;

tlist
	: tname                                 { $$ = ir_list_first(p, $1); }
	| tlist ',' tname                       { $$ = ir_list_push(p, $1, $3); }
	;

tname
	: TOK_IDENT                             { $$ = ir_e_name(p, @1); }
	;

/* ---- Declarations ---------------------------------------------------------------------- */

decl
	: declspec declarators ';'
	;

declspec
	: linkage space attrs                   { $$ = ir_declspec(p, $1, @2, $3, @$); }
	;

linkage
	: %empty                                { $$ = 0; }
	| linkage TOK_VISIBLE                   { $$ = $1 | LINK_VISIBLE; }
	| linkage TOK_EXTERN                    { $$ = $1 | LINK_EXTERN; }
	| linkage TOK_WEAK                      { $$ = $1 | LINK_WEAK; }
	| linkage TOK_COMMON                    { $$ = $1 | LINK_COMMON; }
	;

space
	: TOK_REG
	| TOK_SHARED
	| TOK_LOCAL
	| TOK_CONST
	| TOK_GLOBAL
	| TOK_PARAM
	;

attrs
	: %empty                                { $$ = ir_words_begin(p); }
	| attrs TOK_DOTWORD                     { $$ = ir_words_push(p, $1, @2); }
	| attrs TOK_PTR                         { $$ = ir_words_push(p, $1, @2); }
	| attrs space                           { $$ = ir_words_push(p, $1, @2); }
	| attrs TOK_ALIGN TOK_INT               { $$ = ir_words_align(p, $1, @2, @3); }
	| attrs TOK_ATTRIBUTE '(' attr_words ')' { $$ = $1; }
	;

attr_words
	: TOK_DOTWORD
	| attr_words ',' TOK_DOTWORD
	;

declarators
	: declarator
	| declarators ',' declarator
	;

declarator
	: TOK_IDENT dims init_opt               { ir_declare(p, @1, $2, $3, @$); }
	| TOK_IDENT '<' TOK_INT '>'             { ir_declare_range(p, @1, @3, @$); }
	;

dims
	: %empty                                { $$ = ir_dims_none(p); }
	| dims '[' expr ']'                     { $$ = ir_dims_add(p, $1, $3, @3); }
	| dims '[' ']'                          { $$ = ir_dims_unsized(p, $1, @2); }
	;

init_opt
	: %empty                                { $$ = ir_guard_none(p); }
	| '=' expr                              { $$ = $2; }
	;

/* ---- Instructions ---------------------------------------------------------------------- */

guard
	: '@' TOK_IDENT                         { $$ = ir_guard(p, false, @2, @$); }
	| '@' '!' TOK_IDENT                     { $$ = ir_guard(p, true, @3, @$); }
	;

mods
	: %empty                                { $$ = ir_words_begin(p); }
	| mods TOK_DOTWORD                      { $$ = ir_words_push(p, $1, @2); }
	| mods TOK_WEAK                         { $$ = ir_words_push(p, $1, @2); }
	| mods TOK_SHARED                       { $$ = ir_words_push(p, $1, @2); }
	| mods TOK_LOCAL                        { $$ = ir_words_push(p, $1, @2); }
	| mods TOK_CONST                        { $$ = ir_words_push(p, $1, @2); }
	| mods TOK_GLOBAL                       { $$ = ir_words_push(p, $1, @2); }
	| mods TOK_PARAM                        { $$ = ir_words_push(p, $1, @2); }
	;

opnds_opt
	: %empty                                { $$ = ir_list_empty(p); }
	| opnds
	;

opnds
	: expr                                  { $$ = ir_list_first(p, $1); }
	| opnds ',' expr                        { $$ = ir_list_push(p, $1, $3); }
	;

/* ---- Operands and constant expressions ------------------------------------------------- */

expr
	: TOK_INT                               { $$ = ir_e_int(p, @1); }
	| TOK_FLOAT                             { $$ = ir_e_float(p, @1); }
	| TOK_IDENT                             { $$ = ir_e_name(p, @1); }
	| TOK_IDENT TOK_DOTWORD                 { $$ = ir_e_comp(p, @1, @2, @$); }
	| TOK_SINK                              { $$ = ir_e_sink(p, @1); }
	| '(' ')'                               { $$ = ir_e_paren(p, ir_list_empty(p), @$); }
	| '(' elist ')'                         { $$ = ir_e_paren(p, $2, @$); }
	| '{' elist '}'                         { $$ = ir_e_vector(p, $2, @$); }
	| '[' expr ']'                          { $$ = ir_e_addr(p, $2, @$); }
	| '[' expr ']' TOK_DOTWORD              { $$ = ir_e_addr_suffix(p, $2, @4, @$); }
	| '[' expr ',' elist ']'                { $$ = ir_e_addr_list(p, $2, $4, @$); }
	| TOK_IDENT '[' expr ']'                { $$ = ir_e_index(p, @1, $3, @$); }
	| TOK_IDENT '(' expr ')'                { $$ = ir_e_call(p, @1, $3, @$); }
	| '-' expr %prec UNARY                  { $$ = ir_e_unary(p, '-', $2, @$); }
	| '+' expr %prec UNARY                  { $$ = ir_e_unary(p, '+', $2, @$); }
	| '!' expr %prec UNARY                  { $$ = ir_e_unary(p, '!', $2, @$); }
	| '~' expr %prec UNARY                  { $$ = ir_e_unary(p, '~', $2, @$); }
	| '(' TOK_DOTWORD ')' expr %prec UNARY  { $$ = ir_e_cast(p, @2, $4, @$); }
	| expr '*' expr                         { $$ = ir_e_binary(p, '*', $1, $3, @2, @$); }
	| expr '/' expr                         { $$ = ir_e_binary(p, '/', $1, $3, @2, @$); }
	| expr '%' expr                         { $$ = ir_e_binary(p, '%', $1, $3, @2, @$); }
	| expr '+' expr                         { $$ = ir_e_binary(p, '+', $1, $3, @2, @$); }
	| expr '-' expr                         { $$ = ir_e_binary(p, '-', $1, $3, @2, @$); }
	| expr TOK_SHL expr                     { $$ = ir_e_binary(p, EOP_SHL, $1, $3, @2, @$); }
	| expr TOK_SHR expr                     { $$ = ir_e_binary(p, EOP_SHR, $1, $3, @2, @$); }
	| expr '<' expr                         { $$ = ir_e_binary(p, '<', $1, $3, @2, @$); }
	| expr '>' expr                         { $$ = ir_e_binary(p, '>', $1, $3, @2, @$); }
	| expr TOK_LE expr                      { $$ = ir_e_binary(p, EOP_LE, $1, $3, @2, @$); }
	| expr TOK_GE expr                      { $$ = ir_e_binary(p, EOP_GE, $1, $3, @2, @$); }
	| expr TOK_EQ expr                      { $$ = ir_e_binary(p, EOP_EQ, $1, $3, @2, @$); }
	| expr TOK_NE expr                      { $$ = ir_e_binary(p, EOP_NE, $1, $3, @2, @$); }
	| expr '&' expr                         { $$ = ir_e_binary(p, '&', $1, $3, @2, @$); }
	| expr '^' expr                         { $$ = ir_e_binary(p, '^', $1, $3, @2, @$); }
	| expr '|' expr                         { $$ = ir_e_binary(p, '|', $1, $3, @2, @$); }
	| expr TOK_ANDAND expr                  { $$ = ir_e_binary(p, EOP_ANDAND, $1, $3, @2, @$); }
	| expr TOK_OROR expr                    { $$ = ir_e_binary(p, EOP_OROR, $1, $3, @2, @$); }
	| expr '?' expr ':' expr                { $$ = ir_e_cond(p, $1, $3, $5, @$); }
	;

elist
	: expr                                  { $$ = ir_list_first(p, $1); }
	| elist ',' expr                        { $$ = ir_list_push(p, $1, $3); }
	;

%%

const char *ptx_token_name(int kind)
{
	return yysymbol_name(YYTRANSLATE(kind));
}
