#version 330 core
in vec2 v_uv;
in vec4 v_color;

uniform sampler2D u_atlas; // single channel coverage

out vec4 o_color;

void main()
{
    o_color = vec4(v_color.rgb, v_color.a * texture(u_atlas, v_uv).r);
}
