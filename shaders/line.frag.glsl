#version 330 core
in vec4 v_color;
in vec2 v_aa;

out vec4 o_color;

void main()
{
    float cover = clamp(v_aa.y + 0.5 - abs(v_aa.x), 0.0, 1.0);
    o_color = vec4(v_color.rgb, v_color.a * cover);
}
